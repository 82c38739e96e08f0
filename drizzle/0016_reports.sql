CREATE TABLE "result_reports" (
	"generation_id" uuid PRIMARY KEY NOT NULL,
	"chat_id" bigint NOT NULL,
	"message_id" integer,
	"maker_id" bigint NOT NULL,
	"reporter_ids" bigint[] NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "result_reports_state_valid" CHECK ("result_reports"."state" in ('open','closed'))
);
--> statement-breakpoint
CREATE INDEX "result_reports_open_idx" ON "result_reports" USING btree ("created_at") WHERE "result_reports"."state" = 'open';