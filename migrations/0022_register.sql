CREATE TABLE "register_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"election_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"member_no" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"subject_member_no" text,
	"details" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "electorate_rules" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "elected_in" jsonb;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "register_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "register_closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "roll_hash" text;--> statement-breakpoint
ALTER TABLE "organisation" ADD COLUMN "attributes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "eligibility" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "register_claims" ADD CONSTRAINT "register_claims_election_id_election_id_fk" FOREIGN KEY ("election_id") REFERENCES "public"."election"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "register_claims_election_idx" ON "register_claims" USING btree ("election_id","status","id");--> statement-breakpoint
CREATE INDEX "register_claims_member_idx" ON "register_claims" USING btree ("member_id","election_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION rule_met(
  p_value jsonb,
  p_op text,
  p_target jsonb,
  p_ref date
) RETURNS boolean
LANGUAGE sql STABLE AS $$
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
    WHEN p_op = 'on_or_before' THEN (p_value #>> '{}') COLLATE "C" <= (CASE jsonb_typeof(p_target)
      WHEN 'string' THEN p_target #>> '{}'
      WHEN 'object' THEN to_char(p_ref - make_interval(years => coalesce((p_target ->> 'years_before')::int, 0),
                                                       days => coalesce((p_target ->> 'days_before')::int, 0)), 'YYYY-MM-DD')
      END) COLLATE "C"
    WHEN p_op = 'on_or_after' THEN (p_value #>> '{}') COLLATE "C" >= (CASE jsonb_typeof(p_target)
      WHEN 'string' THEN p_target #>> '{}'
      WHEN 'object' THEN to_char(p_ref - make_interval(years => coalesce((p_target ->> 'years_before')::int, 0),
                                                       days => coalesce((p_target ->> 'days_before')::int, 0)), 'YYYY-MM-DD')
      END) COLLATE "C"
    WHEN p_op = 'equals' THEN (p_value #>> '{}') = (CASE jsonb_typeof(p_target)
      WHEN 'string' THEN p_target #>> '{}'
      WHEN 'object' THEN to_char(p_ref - make_interval(years => coalesce((p_target ->> 'years_before')::int, 0),
                                                       days => coalesce((p_target ->> 'days_before')::int, 0)), 'YYYY-MM-DD')
      END) COLLATE "C"
    WHEN p_op = 'not_equals' THEN (p_value #>> '{}') <> (CASE jsonb_typeof(p_target)
      WHEN 'string' THEN p_target #>> '{}'
      WHEN 'object' THEN to_char(p_ref - make_interval(years => coalesce((p_target ->> 'years_before')::int, 0),
                                                       days => coalesce((p_target ->> 'days_before')::int, 0)), 'YYYY-MM-DD')
      END) COLLATE "C"
    ELSE false
  END, false)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION roll_members(
  p_election_id integer,
  p_today timestamp with time zone
) RETURNS TABLE(member_id integer, branch_id integer)
LANGUAGE plpgsql STABLE AS $$
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
$$;
--> statement-breakpoint
-- Rolls frozen before the register get their hash (docs/api.md "The register").
UPDATE "election" e SET "roll_hash" = (SELECT encode(sha256(convert_to(coalesce(string_agg(m.member_no || E'\n', '' ORDER BY m.member_no COLLATE "C"), ''), 'UTF8')), 'hex') FROM election_roll r JOIN members m ON m.id = r.member_id WHERE r.election_id = e.id) WHERE e.roll_frozen_at IS NOT NULL;
