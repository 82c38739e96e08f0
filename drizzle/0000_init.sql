CREATE TABLE "broadcast_recipients" (
	"broadcast_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"message_id" integer,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" bigint NOT NULL,
	"text" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text,
	"is_forum" boolean DEFAULT false NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_accounts" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"available" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_accounts_available_nonnegative" CHECK ("credit_accounts"."available" >= 0),
	CONSTRAINT "credit_accounts_held_nonnegative" CHECK ("credit_accounts"."held" >= 0)
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"generation_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"state" text NOT NULL,
	"message_ids" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"request_key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"chat_id" bigint,
	"thread_id" integer,
	"reply_to_message_id" integer,
	"status_message_id" integer,
	"inline_message_id" text,
	"language" text DEFAULT 'en' NOT NULL,
	"operation" text NOT NULL,
	"params" jsonb NOT NULL,
	"price" integer NOT NULL,
	"hold_key" text NOT NULL,
	"state" text NOT NULL,
	"task_id" text,
	"service_credits" integer,
	"outputs" jsonb,
	"charged" integer,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"delivery_attempts" integer DEFAULT 0 NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	"measured_seconds" integer,
	"status_shown" text,
	"notified_at" timestamp with time zone,
	"delivered_message_ids" jsonb,
	"file_ids" jsonb,
	"submitted_at" timestamp with time zone,
	"deadline_at" timestamp with time zone,
	"next_poll_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generations_price_nonnegative" CHECK ("generations"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"amount" integer NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"charged_amount" integer,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "credit_holds_amount_positive" CHECK ("credit_holds"."amount" > 0),
	CONSTRAINT "credit_holds_state_valid" CHECK ("credit_holds"."state" in ('open','charged','released')),
	CONSTRAINT "credit_holds_charge_consistent" CHECK (("credit_holds"."state" = 'charged') = ("credit_holds"."charged_amount" is not null) and ("credit_holds"."charged_amount" is null or ("credit_holds"."charged_amount" >= 0 and "credit_holds"."charged_amount" <= "credit_holds"."amount"))),
	CONSTRAINT "credit_holds_refund_bounded" CHECK ("credit_holds"."refunded_amount" >= 0 and "credit_holds"."refunded_amount" <= coalesce("credit_holds"."charged_amount", 0)),
	CONSTRAINT "credit_holds_resolution_time" CHECK (("credit_holds"."state" = 'open') = ("credit_holds"."resolved_at" is null))
);
--> statement-breakpoint
CREATE TABLE "kv_store" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"delta_available" integer NOT NULL,
	"delta_held" integer NOT NULL,
	"hold_id" uuid,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_valid" CHECK ("ledger_entries"."kind" in ('grant','purchase','hold','charge','release','refund','adjustment'))
);
--> statement-breakpoint
CREATE TABLE "orphan_tasks" (
	"task_id" text PRIMARY KEY NOT NULL,
	"generation_id" uuid,
	"service_credits" integer,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"telegram_charge_id" text NOT NULL,
	"provider_charge_id" text,
	"currency" text NOT NULL,
	"total_amount" integer NOT NULL,
	"credits" integer NOT NULL,
	"payload" text NOT NULL,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processed_updates" (
	"update_id" bigint PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY NOT NULL,
	"username" text,
	"first_name" text,
	"language" text DEFAULT 'en' NOT NULL,
	"blocked_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_user_id_credit_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."credit_accounts"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_credit_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."credit_accounts"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_hold_id_credit_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."credit_holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_recipients_pk" ON "broadcast_recipients" USING btree ("broadcast_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_generation_attempt_uq" ON "deliveries" USING btree ("generation_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "generations_request_key_uq" ON "generations" USING btree ("request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "generations_task_id_uq" ON "generations" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "generations_state_idx" ON "generations" USING btree ("state");--> statement-breakpoint
CREATE INDEX "generations_user_idx" ON "generations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_holds_key_uq" ON "credit_holds" USING btree ("key");--> statement-breakpoint
CREATE INDEX "credit_holds_user_idx" ON "credit_holds" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_kind_key_uq" ON "ledger_entries" USING btree ("kind","key");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_idx" ON "ledger_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_hold_idx" ON "ledger_entries" USING btree ("hold_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_charge_uq" ON "payments" USING btree ("telegram_charge_id");