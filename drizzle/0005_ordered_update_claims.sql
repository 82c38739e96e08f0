ALTER TABLE "processed_updates" ADD COLUMN "sequence_keys" text[];--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "handled_by" text;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processed_updates" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "processed_updates_pending_first_key" ON "processed_updates" USING btree (("sequence_keys"[1])) WHERE "processed_updates"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "processed_updates_pending_second_key" ON "processed_updates" USING btree (("sequence_keys"[2])) WHERE "processed_updates"."state" = 'pending';--> statement-breakpoint
ALTER TABLE "processed_updates" ADD CONSTRAINT "processed_updates_two_keys_at_most" CHECK (cardinality("processed_updates"."sequence_keys") <= 2);--> statement-breakpoint
-- Whether an update sharing one of these keys (at most two: the chat, the sender)
-- comes before this one: an earlier one still pending, or any one in hand. Each
-- key position has its own b-tree: one index scan per position.
CREATE OR REPLACE FUNCTION update_blocked(p_update_id bigint, p_keys text[]) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT cardinality(p_keys) > 0 AND (
    EXISTS (
      SELECT 1 FROM processed_updates o
      WHERE o.state = 'pending' AND o.sequence_keys[1] = ANY (p_keys) AND o.update_id <> p_update_id
        AND (o.update_id < p_update_id OR o.lease_until > now())
    ) OR EXISTS (
      SELECT 1 FROM processed_updates o
      WHERE o.state = 'pending' AND o.sequence_keys[2] = ANY (p_keys) AND o.update_id <> p_update_id
        AND (o.update_id < p_update_id OR o.lease_until > now())
    )
  )
$$;
--> statement-breakpoint
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
  blocked boolean;
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
  SELECT u.state, u.lease_until, u.sequence_keys, u.attempts AS tries INTO r
    FROM processed_updates u WHERE u.update_id = p_update_id FOR UPDATE;
  IF NOT FOUND THEN
    -- an update seen for the first time (the webhook's arrival, the usual case) is
    -- written already leased when it is its turn: one row version, not two
    blocked := update_blocked(p_update_id, p_keys);
    -- created_at after the locks: for updates sharing a key, the order they arrived in
    INSERT INTO processed_updates AS u (update_id, payload, state, sequence_keys, created_at,
        lease_owner, lease_until, attempts, handled_by, claimed_at)
      VALUES (p_update_id, p_payload, 'pending', p_keys, clock_timestamp(),
        CASE WHEN blocked THEN NULL ELSE p_token END,
        CASE WHEN blocked THEN NULL ELSE now() + make_interval(secs => p_lease_ms / 1000.0) END,
        CASE WHEN blocked THEN 0 ELSE 1 END,
        CASE WHEN blocked THEN NULL ELSE p_owner END,
        CASE WHEN blocked THEN NULL ELSE clock_timestamp() END)
      ON CONFLICT (update_id) DO NOTHING
      RETURNING u.attempts INTO n;
    IF FOUND THEN
      RETURN QUERY SELECT CASE WHEN blocked THEN 'wait' ELSE 'claimed' END, n;
      RETURN;
    END IF;
    -- written meanwhile by a claim that shares none of its locks (an update without keys)
    SELECT u.state, u.lease_until, u.sequence_keys, u.attempts AS tries INTO r
      FROM processed_updates u WHERE u.update_id = p_update_id FOR UPDATE;
  END IF;
  IF r.state <> 'pending' OR (r.lease_until IS NOT NULL AND r.lease_until > now()) THEN
    RETURN QUERY SELECT 'taken'::text, r.tries;
    RETURN;
  END IF;
  ks := coalesce(r.sequence_keys, p_keys);
  IF update_blocked(p_update_id, ks) THEN
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
-- Claims a batch of updates (the webhook's arrivals gathered while a round trip
-- was under way) in one transaction and one wait for the disk. Every key of the
-- batch is locked first, in hash order as single claims take them, since taking
-- them update by update could deadlock with another batch; then the updates are
-- claimed in update_id order, so of two in one batch sharing a key the earlier
-- is claimed and the later waits. Rows are locked in update_id order here and in
-- finish_updates, which keeps the two from deadlocking either.
-- p_batch: [{"id": update_id, "payload": {...}, "keys": [...], "token": "..."}]
CREATE OR REPLACE FUNCTION claim_updates(
  p_batch jsonb,
  p_owner text,
  p_lease_ms integer,
  p_durable boolean
) RETURNS TABLE (claim_token text, outcome text, attempts integer) LANGUAGE plpgsql AS $$
DECLARE
  k text;
  e jsonb;
  c record;
BEGIN
  IF NOT p_durable THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  FOR k IN
    SELECT x FROM (
      SELECT DISTINCT x FROM jsonb_array_elements(p_batch) AS b, jsonb_array_elements_text(b -> 'keys') AS x
    ) AS d ORDER BY hashtextextended(x, 0)
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(k, 0));
  END LOOP;
  FOR e IN SELECT b FROM jsonb_array_elements(p_batch) AS b ORDER BY (b ->> 'id')::bigint LOOP
    SELECT * INTO c FROM claim_update(
      (e ->> 'id')::bigint,
      e -> 'payload',
      ARRAY(SELECT jsonb_array_elements_text(e -> 'keys')),
      p_owner,
      e ->> 'token',
      p_lease_ms,
      p_durable
    );
    claim_token := e ->> 'token';
    outcome := c.outcome;
    attempts := c.attempts;
    RETURN NEXT;
  END LOOP;
END;
$$;
--> statement-breakpoint
-- Ends claims: done or given up; only a claim's holder can end it. Committed
-- without waiting for the disk: if the database itself crashes before it is
-- written, the update is handled once more, which every handler already
-- tolerates (a crash between the work and this mark does the same).
-- The keys of the updates it ended go out on the update_turns channel, so that
-- other processes wake the updates waiting on them (p_owner: not its own).
-- p_batch: [{"id": update_id, "token": "...", "state": "done" | "abandoned", "keys": [...]}]
CREATE OR REPLACE FUNCTION finish_updates(p_batch jsonb, p_owner text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  ids bigint[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  ids := ARRAY(SELECT (e ->> 'id')::bigint FROM jsonb_array_elements(p_batch) AS e);
  -- by primary key (= ANY), not a join the planner might answer with a scan of the table
  PERFORM 1 FROM processed_updates u WHERE u.update_id = ANY (ids) ORDER BY u.update_id FOR UPDATE;
  UPDATE processed_updates u
    SET state = b.state, payload = NULL, lease_owner = NULL, lease_until = NULL,
        finished_at = clock_timestamp()
    FROM jsonb_to_recordset(p_batch) AS b(id bigint, token text, state text)
    WHERE u.update_id = ANY (ids) AND u.update_id = b.id AND u.lease_owner = b.token;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n > 0 THEN
    PERFORM pg_notify('update_turns', jsonb_build_object(
      'by', p_owner,
      'keys', coalesce((
        SELECT jsonb_agg(DISTINCT k) FROM jsonb_array_elements(p_batch) AS e, jsonb_array_elements_text(e -> 'keys') AS k
      ), '[]'::jsonb)
    )::text);
  END IF;
  RETURN n;
END;
$$;
