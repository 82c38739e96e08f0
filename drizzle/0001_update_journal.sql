ALTER TABLE "processed_updates" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "state" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "processed_updates_pending" ON "processed_updates" USING btree ("state","lease_until") WHERE "processed_updates"."state" = 'pending';