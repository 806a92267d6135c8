-- Several seats per position (ADR 004): a ballot for a position with `seats` N is one receipt
-- with a row per chosen candidate (1..N distinct ones), so the key is (receipt, candidate).
ALTER TABLE "ballots" DROP CONSTRAINT "ballots_pkey";--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_receipt_candidate_id_pk" PRIMARY KEY("receipt","candidate_id");--> statement-breakpoint
DROP FUNCTION IF EXISTS cast_vote(integer, integer[], integer[], text[], text[], text[], text, text, text, timestamptz, bigint, integer);--> statement-breakpoint
-- One vote, one statement (ADR 003), now with several candidates per position. The choices come
-- as pairs (p_position_ids[i], p_candidate_ids[i]): a position repeats once per chosen candidate.
-- The ballots come one per position (p_ballot_positions[j] with its sealed receipt and queue row).
-- Same locks and order as before; the check adds, per position, that it got at most `seats`
-- candidates and no candidate twice. Only when every check passes are the three writes done.
CREATE FUNCTION cast_vote(
  p_member_id integer,
  p_position_ids integer[],
  p_candidate_ids integer[],
  p_ballot_positions integer[],
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
         count(*) > 0 AND bool_and(coalesce(c.active = '1' AND c.position_name IS NOT NULL AND c.eligible AND c.standing AND NOT c.voted
                                            AND c.chosen <= c.seats AND NOT c.duplicate, false)),
         min(c.voter_name)
    INTO v_checks, v_ok, v_name
  FROM (
    WITH req(position_id, candidate_id) AS (SELECT * FROM unnest(p_position_ids, p_candidate_ids)),
         me AS (SELECT m.id, m.name, m.branch_id FROM members m WHERE m.id = p_member_id)
    SELECT req.position_id, req.candidate_id, p.name AS position_name, p.level, p.seats,
           count(*) OVER (PARTITION BY req.position_id) AS chosen,
           count(*) OVER (PARTITION BY req.position_id, req.candidate_id) > 1 AS duplicate,
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
    SELECT p_member_id, t.position_id, t.receipt_enc FROM unnest(p_ballot_positions, p_receipts_enc) AS t(position_id, receipt_enc);
  INSERT INTO ballot_queue (id, sealed)
    SELECT t.id, t.sealed FROM unnest(p_queue_ids, p_sealed) AS t(id, sealed);
  INSERT INTO activity_logs (name, activity, user_id, user_type, data, ip_address, status, created_at, updated_at)
    VALUES (left(v_name, 200), p_activity, p_member_id, 'voter', p_data, p_ip, 'success', p_at, p_at);

  RETURN jsonb_build_object('checks', v_checks, 'xid', pg_current_xact_id()::text);
END;
$$;
