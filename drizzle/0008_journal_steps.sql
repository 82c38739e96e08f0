-- One call for a process's journal work in hand at once: the updates it
-- finished and the updates it claims, and with each claim what the claimed
-- update's handler reads first (the sender's row and stored conversation, by the
-- items' `sender` and `conversation_key`). Under load this is one round trip
-- (one write, one backend woken) where there were three.
--
-- Locks: when a step claims, the advisory locks of every key, finished and
-- claimed, are taken first, in hash order, before any row lock. A finish holds
-- its update's row, and a claim of a redelivered copy of that update holds the
-- key and then asks for the row: a step that finishes it and then asks for keys
-- to claim would wait on that claim while it waits on the step.
--
-- Rows: one per claim (its outcome), then one per claim with a sender
-- (outcome 'sender': the row and the conversation). The sender read is a
-- statement of its own, after the claim: in READ COMMITTED
-- each statement of a PL/pgSQL function sees what was committed before it began,
-- so it sees everything the update's predecessors wrote before they finished (a
-- claim may have waited for their locks). A join in the claim's own statement
-- would read with the snapshot taken before that wait.
CREATE OR REPLACE FUNCTION journal_step(
  p_finish jsonb,
  p_claim jsonb,
  p_owner text,
  p_lease_ms integer,
  p_durable boolean
) RETURNS TABLE (claim_token text, outcome text, attempts integer, sender jsonb, conversation text)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  h bigint;
  commit_mode text := current_setting('synchronous_commit');
BEGIN
  IF jsonb_array_length(p_finish) > 0 THEN
    -- a step that only finishes takes no key locks: it waits on nobody's
    IF jsonb_array_length(p_claim) > 0 THEN
      FOR h IN
        SELECT DISTINCT hashtextextended(x, 0) AS k
          FROM jsonb_array_elements(p_finish || p_claim) AS b, jsonb_array_elements_text(b -> 'keys') AS x
          ORDER BY k
      LOOP
        PERFORM pg_advisory_xact_lock(h);
      END LOOP;
    END IF;
    PERFORM finish_updates(p_finish, p_owner);
    -- finish_updates commits asynchronously; a durable claim in the same call must not
    IF p_durable THEN
      PERFORM set_config('synchronous_commit', commit_mode, true);
    END IF;
  END IF;
  IF jsonb_array_length(p_claim) = 0 THEN
    RETURN;
  END IF;
  RETURN QUERY
    SELECT c.claim_token, c.outcome, c.attempts, NULL::jsonb, NULL::text
      FROM claim_updates(p_claim, p_owner, p_lease_ms, p_durable) AS c;
  -- one row more per claim with a sender, whatever its outcome (the caller reads only the granted ones)
  RETURN QUERY
    SELECT b.token, 'sender'::text, 0, to_jsonb(s), kv.value::text
      FROM jsonb_to_recordset(p_claim) AS b(token text, sender bigint, conversation_key text)
      LEFT JOIN users s ON s.id = b.sender
      LEFT JOIN kv_store kv ON kv.key = b.conversation_key
      WHERE b.sender IS NOT NULL;
END;
$$;
