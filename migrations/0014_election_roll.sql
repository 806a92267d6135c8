-- An election's roll, frozen when voting first opens (docs/api.md "The roll"): a member created or
-- moved into its branches afterwards is not on it, and cast_vote refuses them in that election.
CREATE TABLE "election_roll" (
	"election_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	CONSTRAINT "election_roll_election_id_member_id_pk" PRIMARY KEY("election_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "election_roll" ADD CONSTRAINT "election_roll_election_id_election_id_fk" FOREIGN KEY ("election_id") REFERENCES "public"."election"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- An election that already opened before this release: every member of its electorate now is on
-- its roll (the register of that day is not known any more), so nobody who could vote loses it.
INSERT INTO "election_roll" ("election_id", "member_id")
  SELECT e."id", m."id" FROM "election" e JOIN "members" m ON e."electorate_branch_ids" IS NULL OR m."branch_id" = ANY(e."electorate_branch_ids")
  WHERE e."roll_frozen_at" IS NOT NULL;--> statement-breakpoint
-- cast_vote: the member must be on the election's roll. Same arguments, locks and writes.
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
  p_member_lock_namespace integer,
  p_election_id integer
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
           coalesce(r.active AND r.on_roll AND r.position_name IS NOT NULL AND r.eligible AND r.standing AND NOT r.voted
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
             -- The election's switch (migration 0013: many elections; the ballot is for one election).
             (SELECT e.voting_active FROM election e WHERE e.id = p_election_id) AS active,
             -- On the roll frozen when voting first opened (migration 0014).
             (SELECT true FROM election_roll ro WHERE ro.election_id = p_election_id AND ro.member_id = me.id
               ORDER BY ro.election_id, ro.member_id LIMIT 1) IS NOT NULL AS on_roll,
             me.name AS voter_name,
             -- Voted before in this election: the member's participation rows, each position's election by its key.
             (SELECT true FROM participation pa JOIN positions pp ON pp.id = pa.position_id
               WHERE pa.member_id = me.id AND pp.election_id = p_election_id LIMIT 1) IS NOT NULL AS voted_before
      -- A position of another election is no position of this ballot.
      FROM req CROSS JOIN me LEFT JOIN positions p ON p.id = req.position_id AND p.election_id = p_election_id
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
