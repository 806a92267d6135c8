import { z } from 'zod';

/**
 * The SQL functions the server calls, declared beside the tables (the way Immich keeps its own in
 * `schema/functions.ts`). A declaration is what the database must hold: `functions.test.ts` reads
 * the function the migrations left in the database (arguments, result, language, volatility and
 * body, on PGlite and Postgres) and fails when it differs, so the migrations and the code cannot
 * drift apart. The result each one answers is declared here too, as a parser its caller uses.
 *
 * To change a function: edit its declaration, then add a migration (never edit a landed one) whose
 * SQL is `pnpm --filter @kura/server db:functions <name>` output; when the arguments change, drop
 * the old signature first, as 0006 does, with `--> statement-breakpoint` between the statements
 * (docs/architecture.md "How to add a table").
 */
export type SqlFunction = {
  name: string;
  /** `name type` each, in order, with the type as Postgres spells it (`timestamp with time zone`). */
  arguments: readonly string[];
  returns: string;
  language: 'plpgsql' | 'sql';
  volatility: 'volatile' | 'stable' | 'immutable';
  /** Settings the function runs with (`SET name = value`), as `name=value` the way pg_proc keeps them. */
  settings?: readonly string[];
  /** Exactly the text between the dollar quotes. */
  body: string;
};

/** The statement that (re)defines `fn`, for a new migration. */
export function functionSql(fn: SqlFunction): string {
  const args = fn.arguments.map((a) => `  ${a}`).join(',\n');
  const settings = (fn.settings ?? []).map((s) => {
    const [name, value] = s.split('=');
    return `\nSET ${name} = ${value}`;
  });
  return `CREATE OR REPLACE FUNCTION ${fn.name}(\n${args}\n) RETURNS ${fn.returns}\nLANGUAGE ${fn.language} ${fn.volatility.toUpperCase()}${settings.join('')} AS $$${fn.body}$$;\n`;
}

/**
 * One vote, one statement (ADR 003; migrations 0002, 0006 for several seats, 0009 for a lighter
 * answer and one generic plan, 0011 for the switch on the election row, 0012 for motions, approval and ranked positions, 0013 for
 * many elections: the ballot is for the election `p_election_id`, its switch and positions only;
 * 0014 for its roll; 0018 for a ballot box per election: the election's own lock, shared, besides the
 * installation-wide one, and the queue row filed under its election). The choices come as pairs (p_position_ids[i], p_candidate_ids[i]): a position repeats
 * once per chosen candidate. The ballots come one per position (p_ballot_positions[j] with its
 * sealed receipt and queue row). It takes the shared election lock and the member's lock, then
 * checks, in a snapshot taken after the locks were granted, every choice (voting on, position
 * exists and is the member's, candidate standing, not voted yet, at most `seats` candidates, none
 * twice); only when every check passes does it write participation, ballot_queue and the
 * activity-log row. It answers the transaction id when it wrote the vote, and otherwise the check
 * rows that failed (CastVoteOutcome): a vote that passes builds no JSON of its checks, the server
 * parses none, and the refusal is worded from exactly the rows that refused.
 */
export const castVoteFunction: SqlFunction = {
  name: 'cast_vote',
  arguments: [
    'p_member_id integer',
    'p_position_ids integer[]',
    'p_candidate_ids integer[]',
    'p_ballot_positions integer[]',
    'p_receipts_enc text[]',
    'p_queue_ids text[]',
    'p_sealed text[]',
    'p_activity text',
    'p_data text',
    'p_ip text',
    'p_at timestamp with time zone',
    'p_election_lock bigint',
    'p_member_lock_namespace integer',
    'p_election_id integer',
    'p_election_lock_namespace integer',
  ],
  returns: 'jsonb',
  language: 'plpgsql',
  volatility: 'volatile',
  // PL/pgSQL would otherwise plan the check again on every call (a custom plan per vote: about
  // two thirds of the statement's time in Postgres, BENCHMARKS.md) until it switches to a generic
  // plan at a moment of its choosing. A generic plan is made once per connection, perhaps while
  // participation is empty (a fresh election, just analysed): without enable_seqscan off it would
  // scan members, candidacies and participation whole on every vote for the connection's life.
  // Every table it reads has the index it needs, so index scans are always the plan.
  settings: ['enable_seqscan=off', 'plan_cache_mode=force_generic_plan'],
  body: `
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
`,
};

/** One requested (position, candidate) pair as cast_vote checked it (answered when it refused). */
export const CastVoteCheck = z.object({
  position_id: z.number().int(),
  candidate_id: z.number().int(),
  /** null: no such position (then level and seats are null too). */
  position_name: z.string().nullable(),
  level: z.string().nullable(),
  seats: z.number().int().nullable(),
  /** null: no such position. */
  kind: z.enum(['candidates', 'motion']).nullable(),
  /** The candidates position's method; null for a motion or no such position. */
  method: z.enum(['plurality', 'approval', 'ranked']).nullable(),
  /** How many candidates the request chose for this position. */
  chosen: z.number().int(),
  /** This candidate is chosen more than once for this position. */
  duplicate: z.boolean(),
  /** The member may vote for the position; null (a branch position, a member without a branch) refuses. */
  eligible: z.boolean().nullable(),
  standing: z.boolean(),
  /** The member already voted for this position. */
  voted: z.boolean(),
  /** The election's voting switch (`election.voting_active`). */
  active: z.boolean().nullable(),
  /** The member is on the election's roll (frozen when voting first opened). */
  on_roll: z.boolean(),
  voter_name: z.string(),
  /** The member had voted for some position of this election before this vote. */
  voted_before: z.boolean(),
});
export type CastVoteCheck = z.infer<typeof CastVoteCheck>;

/**
 * What cast_vote answers: `xid` (the transaction id) and whether the member had voted for some
 * position before, when the vote was written; otherwise `refused`, the check rows that failed
 * (none when the member does not exist).
 */
export const CastVoteOutcome = z.union([
  z.object({ xid: z.string(), voted_before: z.boolean() }),
  z.object({ refused: z.array(CastVoteCheck) }),
]);
export type CastVoteOutcome = z.infer<typeof CastVoteOutcome>;

/**
 * The election's ballot box (migration 0018, docs/decisions/009-a-ballot-box-per-election.md): a
 * partition of `ballots` and one of `ballot_queue` for the election, unless it has them. Created
 * empty and attached, which locks the parent tables in SHARE UPDATE EXCLUSIVE mode only: votes (which
 * insert) and readers (a dump included) go on meanwhile.
 */
export const ensureBallotPartitionsFunction: SqlFunction = {
  name: 'ensure_ballot_partitions',
  arguments: ['p_election_id integer'],
  returns: 'void',
  language: 'plpgsql',
  volatility: 'volatile',
  body: `
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
`,
};

/** The trigger on `election` that gives every new election its ballot box, however the row is inserted. */
export const createBallotPartitionsFunction: SqlFunction = {
  name: 'create_ballot_partitions',
  arguments: [],
  returns: 'trigger',
  language: 'plpgsql',
  volatility: 'volatile',
  body: `
BEGIN
  PERFORM ensure_ballot_partitions(NEW.id);
  RETURN NULL;
END;
`,
};

/** Every declared function, for the drift test and `db:functions`. */
/**
 * Whether a member's attribute value meets one rule (docs/api.md "The register"), `p_ref` the day
 * relative dates count back from. The same rule as `ruleMet` in the contract (rules.ts); the roll
 * (db/election-store.ts `rollMembersSql`) applies it to every member with every rule, and
 * modules/register/rules.test.ts runs both on the same cases. A missing value (no key, JSON null)
 * never meets a rule; a value of another type never does either. One expression, so Postgres
 * inlines it into the roll's query, where `roll_members` passes the rule as constants and the
 * planner folds it to the one comparison the operator makes.
 */
/** A rule's text target: the text itself, or the day a {years_before}/{days_before} counts back to from p_ref. */
const DATE_TARGET = `(CASE jsonb_typeof(p_target)
      WHEN 'string' THEN p_target #>> '{}'
      WHEN 'object' THEN to_char(p_ref - make_interval(years => coalesce((p_target ->> 'years_before')::int, 0),
                                                       days => coalesce((p_target ->> 'days_before')::int, 0)), 'YYYY-MM-DD')
      END) COLLATE "C"`;

export const ruleMetFunction: SqlFunction = {
  name: 'rule_met',
  arguments: ['p_value jsonb', 'p_op text', 'p_target jsonb', 'p_ref date'],
  returns: 'boolean',
  language: 'sql',
  // Stable, as its body is (to_char): an immutable declaration over a stable body is never inlined,
  // and a call per member and rule costs some 50 times the inlined expression (BENCHMARKS.md figure 10).
  volatility: 'stable',
  body: `
  SELECT coalesce(CASE
    WHEN p_value IS NULL OR jsonb_typeof(p_value) = 'null' THEN false
    WHEN jsonb_typeof(p_value) = 'number' THEN CASE
      WHEN jsonb_typeof(p_target) <> 'number' THEN false
      WHEN p_op = 'at_least' THEN p_value::numeric >= p_target::numeric
      WHEN p_op = 'at_most' THEN p_value::numeric <= p_target::numeric
      WHEN p_op = 'equals' THEN p_value::numeric = p_target::numeric
      WHEN p_op = 'not_equals' THEN p_value::numeric <> p_target::numeric
      ELSE false END
    WHEN jsonb_typeof(p_value) = 'boolean' THEN CASE
      WHEN jsonb_typeof(p_target) <> 'boolean' THEN false
      WHEN p_op = 'equals' THEN p_value = p_target
      WHEN p_op = 'not_equals' THEN p_value <> p_target
      ELSE false END
    WHEN jsonb_typeof(p_value) <> 'string' THEN false
    WHEN p_op = 'one_of' THEN jsonb_typeof(p_target) = 'array' AND p_target @> jsonb_build_array(p_value)
    WHEN p_op = 'on_or_before' THEN (p_value #>> '{}') COLLATE "C" <= ${DATE_TARGET}
    WHEN p_op = 'on_or_after' THEN (p_value #>> '{}') COLLATE "C" >= ${DATE_TARGET}
    WHEN p_op = 'equals' THEN (p_value #>> '{}') = ${DATE_TARGET}
    WHEN p_op = 'not_equals' THEN (p_value #>> '{}') <> ${DATE_TARGET}
    ELSE false
  END, false)
`,
};

/**
 * The members on an election's roll as it stands (docs/api.md "The register"): of its branches
 * (every member when `electorate_branch_ids` is null), meeting every rule of `electorate_rules`
 * (`rule_met`, relative dates counted back from `opens_at`'s day in the organisation's time zone,
 * `p_today`'s while it has none) and, with `elected_in`, declared elected in that election (in those
 * positions, or any). The rules become constants of one query (`format %L`), so each is folded to
 * its comparison instead of being read from JSON for every member. db/election-store.ts
 * `rollMembersSql` calls it; the freeze writes what it answers.
 */
export const rollMembersFunction: SqlFunction = {
  name: 'roll_members',
  arguments: ['p_election_id integer', 'p_today timestamp with time zone'],
  returns: 'TABLE(member_id integer, branch_id integer)',
  language: 'plpgsql',
  volatility: 'stable',
  body: `
DECLARE
  e record;
  ref date;
  cond text := 'true';
  r jsonb;
  elected integer[];
BEGIN
  SELECT el.electorate_branch_ids AS branch_ids, el.electorate_rules AS rules, el.elected_in, el.opens_at
    INTO e FROM election el WHERE el.id = p_election_id;
  IF NOT FOUND THEN RETURN; END IF;
  ref := (coalesce(e.opens_at, p_today) AT TIME ZONE (SELECT o.time_zone FROM organisation o WHERE o.id = 1))::date;
  FOR r IN SELECT x.value FROM jsonb_array_elements(e.rules) x LOOP
    cond := cond || format(' AND rule_met(m.attributes -> %L, %L, %L::jsonb, %L::date)', r ->> 'attribute', r ->> 'op', r -> 'value', ref);
  END LOOP;
  IF e.elected_in IS NOT NULL THEN
    SELECT coalesce(array_agg(DISTINCT (v ->> 'candidate_id')::int), '{}') INTO elected
    FROM declarations d
      CROSS JOIN LATERAL json_array_elements(d.declaration -> 'data') g
      CROSS JOIN LATERAL json_array_elements(CASE WHEN json_typeof(g -> 'values') = 'array' THEN g -> 'values' ELSE '[]'::json END) v
    WHERE d.election_id = (e.elected_in ->> 'election_id')::int AND (v ->> 'elected') = 'true'
      AND (jsonb_typeof(e.elected_in -> 'position_ids') IS DISTINCT FROM 'array'
           OR e.elected_in -> 'position_ids' @> to_jsonb((g ->> 'position_id')::int));
    cond := cond || ' AND m.id = ANY($2)';
  END IF;
  RETURN QUERY EXECUTE 'SELECT m.id, m.branch_id FROM members m WHERE ($1 IS NULL OR m.branch_id = ANY($1)) AND ' || cond
    USING e.branch_ids, elected;
END
`,
};

export const sqlFunctions: readonly SqlFunction[] = [
  rollMembersFunction,
  castVoteFunction,
  ensureBallotPartitionsFunction,
  createBallotPartitionsFunction,
  ruleMetFunction,
];
