-- A ballot box per election (docs/decisions/009-a-ballot-box-per-election.md). `ballots` and
-- `ballot_queue` become tables partitioned by election (LIST on a new `election_id` column), a
-- partition pair `ballots_e<id>` / `ballot_queue_e<id>` per election, created by a trigger on
-- `election` for every new one and here for every existing one. The close re-mixes (truncates and
-- rewrites) its own pair only: a vote or a reader in another election never meets it.
-- Ballots keep every column and are filed under their position's election (a ballot of a
-- position that no longer exists stops the migration: nothing is dropped). Queued rows are sealed,
-- so their election cannot be read here: they go to partition 0 (`ballot_queue_e0`), which the
-- mixer empties into their elections' partitions with the key (mixer.ts `fileUnsortedQueue`).
-- The old tables are dropped (their files and dead tuples with them).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "ballots" b LEFT JOIN "positions" p ON p."id" = b."position_id" WHERE p."id" IS NULL) THEN
    RAISE EXCEPTION 'ballots of a position that no longer exists: the ballot box cannot be filed by election';
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "ballots" RENAME TO "ballots_unpartitioned";--> statement-breakpoint
ALTER TABLE "ballot_queue" RENAME TO "ballot_queue_unpartitioned";--> statement-breakpoint
CREATE TABLE "ballots" (
	"election_id" integer NOT NULL,
	"receipt" text NOT NULL,
	"position_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"rank" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "ballots_election_id_receipt_candidate_id_pk" PRIMARY KEY("election_id","receipt","candidate_id")
) PARTITION BY LIST ("election_id");--> statement-breakpoint
CREATE TABLE "ballot_queue" (
	"election_id" integer NOT NULL,
	"id" text NOT NULL,
	"sealed" text NOT NULL,
	CONSTRAINT "ballot_queue_election_id_id_pk" PRIMARY KEY("election_id","id")
) PARTITION BY LIST ("election_id");--> statement-breakpoint
CREATE TABLE "ballot_queue_e0" PARTITION OF "ballot_queue" FOR VALUES IN (0);--> statement-breakpoint
CREATE OR REPLACE FUNCTION ensure_ballot_partitions(
  p_election_id integer
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_table text;
BEGIN
  FOREACH v_table IN ARRAY ARRAY['ballots', 'ballot_queue'] LOOP
    IF to_regclass(format('public.%I', v_table || '_e' || p_election_id)) IS NULL THEN
      EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING DEFAULTS)', v_table || '_e' || p_election_id, v_table);
      EXECUTE format('ALTER TABLE public.%I ATTACH PARTITION public.%I FOR VALUES IN (%s)', v_table, v_table || '_e' || p_election_id, p_election_id);
    END IF;
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION create_ballot_partitions(

) RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM ensure_ballot_partitions(NEW.id);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "election_ballot_partitions" AFTER INSERT ON "election" FOR EACH ROW EXECUTE FUNCTION create_ballot_partitions();--> statement-breakpoint
SELECT ensure_ballot_partitions("id") FROM "election";--> statement-breakpoint
INSERT INTO "ballots" ("election_id", "receipt", "position_id", "candidate_id", "rank")
  SELECT p."election_id", b."receipt", b."position_id", b."candidate_id", b."rank"
  FROM "ballots_unpartitioned" b JOIN "positions" p ON p."id" = b."position_id"
  ORDER BY gen_random_uuid();--> statement-breakpoint
INSERT INTO "ballot_queue" ("election_id", "id", "sealed") SELECT 0, "id", "sealed" FROM "ballot_queue_unpartitioned";--> statement-breakpoint
DROP TABLE "ballots_unpartitioned";--> statement-breakpoint
DROP TABLE "ballot_queue_unpartitioned";--> statement-breakpoint
-- cast_vote files the queue row under its election and takes the election's own lock.
DROP FUNCTION cast_vote(integer, integer[], integer[], integer[], text[], text[], text[], text, text, text, timestamp with time zone, bigint, integer, integer);--> statement-breakpoint
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
  p_election_id integer,
  p_election_lock_namespace integer
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
  PERFORM pg_advisory_xact_lock_shared(p_election_lock), pg_advisory_xact_lock_shared(p_election_lock_namespace, p_election_id),
          pg_advisory_xact_lock(p_member_lock_namespace, p_member_id);

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
  INSERT INTO ballot_queue (election_id, id, sealed)
    SELECT p_election_id, t.id, t.sealed FROM unnest(p_queue_ids, p_sealed) AS t(id, sealed);
  INSERT INTO activity_logs (name, activity, user_id, user_type, data, ip_address, status, created_at, updated_at)
    VALUES (left(v_name, 200), p_activity, p_member_id, 'voter', p_data, p_ip, 'success', p_at, p_at);

  RETURN jsonb_build_object('xid', pg_current_xact_id()::text, 'voted_before', v_voted_before);
END;
$$;
