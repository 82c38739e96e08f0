CREATE TABLE "plan_subscriptions" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"subscription_charge_id" text NOT NULL,
	"last_charge_id" text NOT NULL,
	"period_ends_at" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;