-- The declaration of a close, counted once in the transaction that records its final commitment and
-- served from here by every process (docs/architecture.md "The declaration"). `json`, not `jsonb`:
-- the text is kept as written, keys in order. A close finalised before this release has no row: the
-- first read after the upgrade counts it once and stores it (lifecycle.ts `storedDeclaration`).
CREATE TABLE "declarations" (
	"commitment_id" bigint PRIMARY KEY NOT NULL,
	"election_id" integer NOT NULL,
	"declaration" json NOT NULL
);
--> statement-breakpoint
-- Append-only, like the commitments it belongs to: refuse any UPDATE or DELETE.
CREATE OR REPLACE FUNCTION declarations_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'declarations are append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER declarations_no_update BEFORE UPDATE OR DELETE ON declarations
  FOR EACH ROW EXECUTE FUNCTION declarations_append_only();
--> statement-breakpoint
-- Each member's branch at the freeze: a branch motion's quorum and the turnout per branch count it,
-- so a later move does not change them. A roll frozen before this release: the member's branch now,
-- at the upgrade (the branch of the day of the freeze is not known any more).
ALTER TABLE "election_roll" ADD COLUMN "branch_id" integer;
--> statement-breakpoint
UPDATE "election_roll" r SET "branch_id" = m."branch_id" FROM "members" m WHERE m."id" = r."member_id";
--> statement-breakpoint
ALTER TABLE "election_roll" ALTER COLUMN "branch_id" SET NOT NULL;
