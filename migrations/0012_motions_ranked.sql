CREATE TABLE "motion_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"position_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_order" smallint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "kind" text DEFAULT 'candidates' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "method" text DEFAULT 'plurality' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "threshold" text DEFAULT 'majority' NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "quorum_percent" integer;--> statement-breakpoint
ALTER TABLE "ballots" ADD COLUMN "rank" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "motion_options" ADD CONSTRAINT "motion_options_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "motion_options_position_idx" ON "motion_options" USING btree ("position_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "motion_options_position_name_uq" ON "motion_options" USING btree ("position_id","name");--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_kind_ck" CHECK ("positions"."kind" in ('candidates', 'motion'));--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_method_ck" CHECK ("positions"."method" in ('plurality', 'approval', 'ranked'));--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_threshold_ck" CHECK ("positions"."threshold" in ('majority', 'two_thirds', 'three_quarters'));--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_quorum_ck" CHECK ("positions"."quorum_percent" is null or ("positions"."quorum_percent" between 1 and 100));--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_motion_seats_ck" CHECK ("positions"."kind" <> 'motion' or "positions"."seats" = 1);--> statement-breakpoint
-- cast_vote: motions (their options stand as candidates), approval and ranked (1..all distinct candidates), docs/api.md "Many elections, motions and ranked counts".
CREATE OR REPLACE FUNCTION cast_vote(
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
  p_at timestamp with time zone,
  p_election_lock bigint,
  p_member_lock_namespace integer
) RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_refused jsonb;
  v_ok boolean;
  v_name text;
  v_voted_before boolean;
  -- Each position named once, in the order of the ballots: participation's key refuses a ballot
  -- position listed twice, so then every position got exactly one candidate.
  v_one_each boolean := p_position_ids = p_ballot_positions;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(p_election_lock), pg_advisory_xact_lock(p_member_lock_namespace, p_member_id);

  SELECT coalesce(jsonb_agg(c) FILTER (WHERE NOT c.ok), '[]'::jsonb), count(*) > 0 AND bool_and(c.ok), min(c.voter_name), bool_or(c.voted_before)
    INTO v_refused, v_ok, v_name, v_voted_before
  FROM (
    SELECT r.*,
           -- coalesce: a NULL must refuse (e.g. a branch position with no branch).
           -- Approval and ranked take 1..all distinct standing candidates: standing and distinct bound them.
           -- A motion has one seat: exactly one option.
           coalesce(r.active AND r.position_name IS NOT NULL AND r.eligible AND r.standing AND NOT r.voted
                    AND (r.chosen <= r.seats OR r.method IN ('approval', 'ranked')) AND NOT r.duplicate, false) AS ok
    FROM (
      WITH req(position_id, candidate_id) AS (SELECT * FROM unnest(p_position_ids, p_candidate_ids)),
           me AS (SELECT m.id, m.name, m.branch_id FROM members m WHERE m.id = p_member_id)
      SELECT req.position_id, req.candidate_id, p.name AS position_name, p.level, p.seats,
             p.kind, CASE WHEN p.kind = 'candidates' THEN p.method END AS method,
             -- The usual ballot names each position once (then nothing can exceed its seats or repeat):
             -- it skips the counting, which is a sort per ballot when written as window functions.
             CASE WHEN v_one_each THEN 1 ELSE (SELECT count(*) FROM unnest(p_position_ids) x WHERE x = req.position_id) END AS chosen,
             CASE WHEN v_one_each THEN false
                  ELSE (SELECT count(*) FROM unnest(p_position_ids, p_candidate_ids) y(p, c) WHERE y.p = req.position_id AND y.c = req.candidate_id) > 1
             END AS duplicate,
             (p.id IS NOT NULL AND (p.level = 'National' OR p.branch_id = me.branch_id)) AS eligible,
             -- Probes in primary-key order with LIMIT 1, not EXISTS: a generic plan may run an EXISTS as
             -- a hashed subplan that reads all of participation (which grows all day) on every vote.
             -- A motion's options stand where candidates would (migration 0012).
             CASE WHEN p.kind = 'motion'
                  THEN (SELECT true FROM motion_options o WHERE o.position_id = req.position_id AND o.id = req.candidate_id
                         ORDER BY o.position_id, o.id LIMIT 1) IS NOT NULL
                  ELSE (SELECT true FROM candidacies cd WHERE cd.member_id = req.candidate_id AND cd.position_id = req.position_id
                         ORDER BY cd.member_id, cd.position_id LIMIT 1) IS NOT NULL
             END AS standing,
             (SELECT true FROM participation pa WHERE pa.member_id = me.id AND pa.position_id = req.position_id
               ORDER BY pa.member_id, pa.position_id LIMIT 1) IS NOT NULL AS voted,
             (SELECT e.voting_active FROM election e WHERE e.id = 1) AS active,
             me.name AS voter_name,
             (SELECT true FROM participation pa WHERE pa.member_id = me.id ORDER BY pa.member_id, pa.position_id LIMIT 1) IS NOT NULL AS voted_before
      FROM req CROSS JOIN me LEFT JOIN positions p ON p.id = req.position_id
    ) r
  ) c;

  IF NOT coalesce(v_ok, false) THEN
    RETURN jsonb_build_object('refused', v_refused);
  END IF;

  INSERT INTO participation (member_id, position_id, receipt_enc)
    SELECT p_member_id, t.position_id, t.receipt_enc FROM unnest(p_ballot_positions, p_receipts_enc) AS t(position_id, receipt_enc);
  INSERT INTO ballot_queue (id, sealed)
    SELECT t.id, t.sealed FROM unnest(p_queue_ids, p_sealed) AS t(id, sealed);
  INSERT INTO activity_logs (name, activity, user_id, user_type, data, ip_address, status, created_at, updated_at)
    VALUES (left(v_name, 200), p_activity, p_member_id, 'voter', p_data, p_ip, 'success', p_at, p_at);

  RETURN jsonb_build_object('xid', pg_current_xact_id()::text, 'voted_before', v_voted_before);
END;
$$;
