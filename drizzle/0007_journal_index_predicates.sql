DROP INDEX "processed_updates_pending";--> statement-breakpoint
DROP INDEX "processed_updates_pending_first_key";--> statement-breakpoint
DROP INDEX "processed_updates_pending_second_key";--> statement-breakpoint
CREATE INDEX "processed_updates_pending" ON "processed_updates" USING btree ("state","lease_until") WHERE "processed_updates"."state" = 'pending' AND "processed_updates"."payload" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "processed_updates_pending_first_key" ON "processed_updates" USING btree (("sequence_keys"[1])) WHERE "processed_updates"."state" = 'pending' AND ("processed_updates"."sequence_keys"[1]) IS NOT NULL;--> statement-breakpoint
CREATE INDEX "processed_updates_pending_second_key" ON "processed_updates" USING btree (("sequence_keys"[2])) WHERE "processed_updates"."state" = 'pending' AND ("processed_updates"."sequence_keys"[2]) IS NOT NULL;