CREATE TABLE "dub_parts" (
	"generation_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"task_id" text,
	"service_credits" integer,
	"measured_seconds" integer,
	"output_url" text,
	"error" text,
	"submitted_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dub_parts_state_known" CHECK ("dub_parts"."state" in ('queued', 'submitting', 'pending', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "parts_total" integer;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "parts_done" integer;--> statement-breakpoint
ALTER TABLE "dub_parts" ADD CONSTRAINT "dub_parts_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dub_parts_generation_index_uq" ON "dub_parts" USING btree ("generation_id","index");--> statement-breakpoint
CREATE UNIQUE INDEX "dub_parts_task_id_uq" ON "dub_parts" USING btree ("task_id");