-- One vote, one statement (ADR 003). The server calls this in autocommit: one round trip
-- instead of BEGIN, locks + check, write, COMMIT, so no pooled connection sits "idle in
-- transaction" while the server's event loop is busy, and embedded PGlite (one connection for
-- every request) holds its only connection for one message instead of four.
--
-- Same rules and order as before: the shared election lock (a toggle takes it exclusively) and the
-- member's lock first; then the check, which in a VOLATILE plpgsql function runs with a snapshot
-- taken after the locks were granted, so it sees a toggle or this member's earlier ballot that
-- committed while it waited; then, only when every check passes, the three writes. The check rows
-- always come back (as JSON) and the server words the refusal from them; `xid` is there only when
-- the vote was written. A unique violation on participation fails the statement, and with it the
-- whole implicit transaction.
CREATE OR REPLACE FUNCTION cast_vote(
  p_member_id integer,
  p_position_ids integer[],
  p_candidate_ids integer[],
  p_receipts_enc text[],
  p_queue_ids text[],
  p_sealed text[],
  p_activity text,
  p_data text,
  p_ip text,
  p_at timestamptz,
  p_election_lock bigint,
  p_member_lock_namespace integer
) RETURNS jsonb
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_checks jsonb;
  v_ok boolean;
  v_name text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(p_election_lock), pg_advisory_xact_lock(p_member_lock_namespace, p_member_id);

  SELECT coalesce(jsonb_agg(c), '[]'::jsonb),
         -- coalesce: bool_and skips NULLs, and a NULL must refuse (e.g. a branch position with no branch).
         count(*) > 0 AND bool_and(coalesce(c.active = '1' AND c.position_name IS NOT NULL AND c.eligible AND c.standing AND NOT c.voted, false)),
         min(c.voter_name)
    INTO v_checks, v_ok, v_name
  FROM (
    WITH req(position_id, candidate_id) AS (SELECT * FROM unnest(p_position_ids, p_candidate_ids)),
         me AS (SELECT m.id, m.name, m.branch_id FROM members m WHERE m.id = p_member_id)
    SELECT req.position_id, req.candidate_id, p.name AS position_name, p.level,
           (p.id IS NOT NULL AND (p.level = 'National' OR p.branch_id = me.branch_id)) AS eligible,
           EXISTS (SELECT 1 FROM candidacies cd WHERE cd.position_id = req.position_id AND cd.member_id = req.candidate_id) AS standing,
           EXISTS (SELECT 1 FROM participation pa WHERE pa.member_id = me.id AND pa.position_id = req.position_id) AS voted,
           (SELECT s.value FROM settings s WHERE s.key = 'election_active') AS active,
           me.name AS voter_name,
           EXISTS (SELECT 1 FROM participation pa WHERE pa.member_id = me.id) AS voted_before
    FROM req CROSS JOIN me LEFT JOIN positions p ON p.id = req.position_id
  ) c;

  IF NOT coalesce(v_ok, false) THEN
    RETURN jsonb_build_object('checks', v_checks);
  END IF;

  INSERT INTO participation (member_id, position_id, receipt_enc)
    SELECT p_member_id, t.position_id, t.receipt_enc FROM unnest(p_position_ids, p_receipts_enc) AS t(position_id, receipt_enc);
  INSERT INTO ballot_queue (id, sealed)
    SELECT t.id, t.sealed FROM unnest(p_queue_ids, p_sealed) AS t(id, sealed);
  INSERT INTO activity_logs (name, activity, user_id, data, ip_address, status, created_at, updated_at)
    VALUES (left(v_name, 200), p_activity, p_member_id, p_data, p_ip, 'success', p_at, p_at);

  RETURN jsonb_build_object('checks', v_checks, 'xid', pg_current_xact_id()::text);
END;
$$;
