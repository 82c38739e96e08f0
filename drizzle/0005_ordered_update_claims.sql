ALTER TABLE "processed_updates" ADD COLUMN "sequence_keys" text[];--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "handled_by" text;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "processed_updates_pending_keys" ON "processed_updates" USING gin ("sequence_keys") WHERE "processed_updates"."state" = 'pending';--> statement-breakpoint
-- Takes an update for handling under a lease, in turn: it is leased only when
-- no earlier update sharing one of its keys (its chat, its sender) is still
-- pending, and none sharing a key is in hand, in any process. "Earlier" is
-- update_id order among the updates that have arrived: one that arrives after
-- a later one was handled (webhook connections race) is handled after it. One advisory lock
-- per key, held to commit, makes the look and the lease one step.
-- Outcomes: 'claimed' (the caller holds the lease), 'taken' (done, given up,
-- or leased by another handler), 'wait' (an earlier or held update comes first).
CREATE OR REPLACE FUNCTION claim_update(
  p_update_id bigint,
  p_payload jsonb,
  p_keys text[],
  p_owner text,
  p_token text,
  p_lease_ms integer,
  p_durable boolean
) RETURNS TABLE (outcome text, attempts integer) LANGUAGE plpgsql AS $$
DECLARE
  k text;
  r record;
  ks text[];
  n integer;
BEGIN
  -- a lost lease only means the update is taken again; the record Telegram's
  -- answer depends on (p_durable) still waits for the disk
  IF NOT p_durable THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  -- by hash, the order every caller takes the same locks in
  FOR k IN SELECT x FROM (SELECT DISTINCT x FROM unnest(p_keys) AS x) AS d ORDER BY hashtextextended(x, 0) LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(k, 0));
  END LOOP;
  -- created_at after the locks: for updates sharing a key, the order they arrived in
  INSERT INTO processed_updates (update_id, payload, state, sequence_keys, created_at)
    VALUES (p_update_id, p_payload, 'pending', p_keys, clock_timestamp())
    ON CONFLICT (update_id) DO NOTHING;
  SELECT u.state, u.lease_until, u.sequence_keys, u.attempts AS tries INTO r
    FROM processed_updates u WHERE u.update_id = p_update_id FOR UPDATE;
  IF r.state <> 'pending' OR (r.lease_until IS NOT NULL AND r.lease_until > now()) THEN
    RETURN QUERY SELECT 'taken'::text, r.tries;
    RETURN;
  END IF;
  ks := coalesce(r.sequence_keys, p_keys);
  IF cardinality(ks) > 0 AND EXISTS (
    SELECT 1 FROM processed_updates o
    WHERE o.state = 'pending' AND o.sequence_keys && ks AND o.update_id <> p_update_id
      AND (o.update_id < p_update_id OR o.lease_until > now())
  ) THEN
    RETURN QUERY SELECT 'wait'::text, r.tries;
    RETURN;
  END IF;
  UPDATE processed_updates u
    SET lease_owner = p_token,
        lease_until = now() + make_interval(secs => p_lease_ms / 1000.0),
        attempts = u.attempts + 1,
        sequence_keys = ks,
        handled_by = p_owner,
        claimed_at = clock_timestamp(),
        finished_at = NULL
    WHERE u.update_id = p_update_id
    RETURNING u.attempts INTO n;
  RETURN QUERY SELECT 'claimed'::text, n;
END;
$$;
--> statement-breakpoint
-- Ends a claim: done or given up; only its holder can. Committed without
-- waiting for the disk: if the database itself crashes before it is written,
-- the update is handled once more, which every handler already tolerates (a
-- crash between the work and this mark does the same).
CREATE OR REPLACE FUNCTION finish_update(p_update_id bigint, p_token text, p_state text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE processed_updates
    SET state = p_state, payload = NULL, lease_owner = NULL, lease_until = NULL,
        finished_at = clock_timestamp()
    WHERE update_id = p_update_id AND lease_owner = p_token;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END;
$$;
