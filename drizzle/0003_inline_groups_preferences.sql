CREATE TABLE "group_settings" (
	"chat_id" bigint PRIMARY KEY NOT NULL,
	"disabled_operations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access" text DEFAULT 'everyone' NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_settings_access_valid" CHECK ("group_settings"."access" in ('everyone','admins'))
);
--> statement-breakpoint
CREATE TABLE "inline_offers" (
	"inline_message_id" text PRIMARY KEY NOT NULL,
	"offer_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"params" jsonb NOT NULL,
	"price" integer NOT NULL,
	"generation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"user_id" bigint NOT NULL,
	"operation" text NOT NULL,
	"options" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "file_kinds" jsonb;--> statement-breakpoint
CREATE INDEX "inline_offers_user_idx" ON "inline_offers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_preferences_pk" ON "user_preferences" USING btree ("user_id","operation");