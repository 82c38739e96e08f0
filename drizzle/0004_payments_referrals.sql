CREATE TABLE "referrals" (
	"referred_id" bigint PRIMARY KEY NOT NULL,
	"referrer_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reward_charge_id" text,
	"rewarded_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "referrals_not_self" CHECK ("referrals"."referred_id" <> "referrals"."referrer_id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "state" text DEFAULT 'paid' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "pack_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "source" text DEFAULT 'update' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reversed_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "not_reversed_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referral_code" text;--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referral_code_unique" UNIQUE("referral_code");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_state_valid" CHECK ("payments"."state" in ('paid','refunded'));