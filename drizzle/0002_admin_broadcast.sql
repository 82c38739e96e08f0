ALTER TABLE "broadcasts" ALTER COLUMN "state" SET DEFAULT 'sending';--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "source_chat_id" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "source_message_ids" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "audience" jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "progress_chat_id" bigint;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "progress_message_id" integer;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "request_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "banned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_pending" ON "broadcast_recipients" USING btree ("broadcast_id","user_id") WHERE "broadcast_recipients"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "broadcasts_request_key" ON "broadcasts" USING btree ("request_key");