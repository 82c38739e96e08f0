CREATE TABLE "promo_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"credits" integer NOT NULL,
	"max_uses" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"new_users_only" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_credits_positive" CHECK ("promo_codes"."credits" > 0),
	CONSTRAINT "promo_codes_uses_within_max" CHECK ("promo_codes"."used" >= 0 and "promo_codes"."used" <= "promo_codes"."max_uses")
);
