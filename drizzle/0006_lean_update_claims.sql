-- claim_updates in one function: the batch's keys locked once (claim_update took
-- them again for every update), the batch read as records, and the look for an
-- update that comes first written out in the loop (a LANGUAGE sql function
-- called from PL/pgSQL was parsed and planned on every call). A new update, the
-- usual case, is written already leased.
-- Both journal functions plan each statement once per connection and keep that
-- plan (force_generic_plan): Postgres otherwise judged the generic plans of the
-- look by key dearer than plans for the call's own values and planned every
-- statement on every call, most of a claim's cost. A kept plan must be right
-- whatever the table held when it was made: rows are reached only by an index
-- (enable_seqscan off; a plan made while the table was small scanned it whole on
-- every call), and each look by key can use its own key index alone: it states
-- that index's predicate, which no other index's predicate is implied by (0007).
CREATE OR REPLACE FUNCTION claim_updates(
  p_batch jsonb,
  p_owner text,
  p_lease_ms integer,
  p_durable boolean
) RETURNS TABLE (claim_token text, outcome text, attempts integer) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  h bigint;
  e record;
  r record;
  known boolean;
  ks text[];
  n integer;
  blocked boolean;
  lease timestamptz := now() + make_interval(secs => p_lease_ms / 1000.0);
BEGIN
  IF NOT p_durable THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  -- every key of the batch, in hash order: the order every caller takes the same locks in
  FOR h IN
    SELECT DISTINCT hashtextextended(x, 0) AS k
      FROM jsonb_array_elements(p_batch) AS b, jsonb_array_elements_text(b -> 'keys') AS x
      ORDER BY k
  LOOP
    PERFORM pg_advisory_xact_lock(h);
  END LOOP;
  -- in update_id order: of two in one batch sharing a key the earlier is claimed, the later waits
  FOR e IN
    SELECT b.id, b.payload, coalesce(b.keys, '{}') AS keys, b.token
      FROM jsonb_to_recordset(p_batch) AS b(id bigint, payload jsonb, keys text[], token text)
      ORDER BY b.id
  LOOP
    claim_token := e.token;
    LOOP
      SELECT u.state, u.lease_until, u.sequence_keys, u.attempts AS tries INTO r
        FROM processed_updates u WHERE u.update_id = e.id FOR UPDATE;
      known := FOUND;
      IF known AND (r.state <> 'pending' OR (r.lease_until IS NOT NULL AND r.lease_until > now())) THEN
        outcome := 'taken';
        attempts := r.tries;
        EXIT;
      END IF;
      ks := CASE WHEN known THEN coalesce(r.sequence_keys, e.keys) ELSE e.keys END;
      -- an update sharing a key comes first: an earlier one still pending, or any one in hand
      blocked := cardinality(ks) > 0 AND (
        EXISTS (
          SELECT 1 FROM processed_updates o
          WHERE o.state = 'pending' AND o.sequence_keys[1] IS NOT NULL AND o.sequence_keys[1] = ANY (ks)
            AND o.update_id <> e.id
            AND (o.update_id < e.id OR o.lease_until > now())
        ) OR EXISTS (
          SELECT 1 FROM processed_updates o
          WHERE o.state = 'pending' AND o.sequence_keys[2] IS NOT NULL AND o.sequence_keys[2] = ANY (ks)
            AND o.update_id <> e.id
            AND (o.update_id < e.id OR o.lease_until > now())
        )
      );
      IF known THEN
        IF blocked THEN
          outcome := 'wait';
          attempts := r.tries;
          EXIT;
        END IF;
        UPDATE processed_updates u
          SET lease_owner = e.token,
              lease_until = lease,
              attempts = u.attempts + 1,
              sequence_keys = ks,
              handled_by = p_owner,
              claimed_at = clock_timestamp(),
              finished_at = NULL
          WHERE u.update_id = e.id
          RETURNING u.attempts INTO n;
        outcome := 'claimed';
        attempts := n;
        EXIT;
      END IF;
      -- seen for the first time (the webhook's arrival, the usual case): written already
      -- leased when it is its turn, one row version, not two; created_at after the
      -- locks: for updates sharing a key, the order they arrived in
      INSERT INTO processed_updates AS u (update_id, payload, state, sequence_keys, created_at,
          lease_owner, lease_until, attempts, handled_by, claimed_at)
        VALUES (e.id, e.payload, 'pending', ks, clock_timestamp(),
          CASE WHEN blocked THEN NULL ELSE e.token END,
          CASE WHEN blocked THEN NULL ELSE lease END,
          CASE WHEN blocked THEN 0 ELSE 1 END,
          CASE WHEN blocked THEN NULL ELSE p_owner END,
          CASE WHEN blocked THEN NULL ELSE clock_timestamp() END)
        ON CONFLICT (update_id) DO NOTHING
        RETURNING u.attempts INTO n;
      IF FOUND THEN
        outcome := CASE WHEN blocked THEN 'wait' ELSE 'claimed' END;
        attempts := n;
        EXIT;
      END IF;
      -- written meanwhile by a claim that shares none of its locks (an update without keys): look again
    END LOOP;
    RETURN NEXT;
  END LOOP;
END;
$$;
--> statement-breakpoint
-- claim_updates no longer calls these: the claim and its look live in it alone
DROP FUNCTION IF EXISTS claim_update(bigint, jsonb, text[], text, text, integer, boolean);
--> statement-breakpoint
DROP FUNCTION IF EXISTS update_blocked(bigint, text[]);
--> statement-breakpoint
ALTER FUNCTION finish_updates(jsonb, text) SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION finish_updates(jsonb, text) SET enable_seqscan = off;
