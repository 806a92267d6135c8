-- The frozen roll keeps each member's number and branch name as they were at the freeze
-- (docs/api.md "The register"; docs/operations.md "After the close: certifying the result"):
-- roll.csv, the roll's hash, the declaration and the evidence pack read them, so renumbering a
-- member or renaming a branch after the freeze changes nothing a signature covers. Rows frozen
-- before this migration take the values as they are now.
ALTER TABLE "election_roll" ADD COLUMN "member_no" text;--> statement-breakpoint
ALTER TABLE "election_roll" ADD COLUMN "branch" text;--> statement-breakpoint
UPDATE "election_roll" r SET "member_no" = m."member_no" FROM "members" m WHERE m."id" = r."member_id";--> statement-breakpoint
UPDATE "election_roll" r SET "branch" = b."name" FROM "branches" b WHERE b."id" = r."branch_id";--> statement-breakpoint
-- A member on a frozen roll cannot be deleted, so none should be missing; one that is keeps its id.
UPDATE "election_roll" SET "member_no" = '#' || "member_id" WHERE "member_no" IS NULL;--> statement-breakpoint
UPDATE "election_roll" SET "branch" = '' WHERE "branch" IS NULL;--> statement-breakpoint
ALTER TABLE "election_roll" ALTER COLUMN "member_no" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "election_roll" ALTER COLUMN "branch" SET NOT NULL;
