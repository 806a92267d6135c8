-- The register accepts ordinary data (docs/api.md "Register formats"): an e-mail is optional,
-- member numbers follow the organisation's pattern (null: the default rule), and phones are
-- stored in E.164. Phones stored before as 10 national digits (07…, 01…) or as 254… become +254….
ALTER TABLE "members" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation" ADD COLUMN "member_no_pattern" text;--> statement-breakpoint
UPDATE "members" SET "phone" = '+254' || substr("phone", 2) WHERE "phone" ~ '^0[17][0-9]{8}$';--> statement-breakpoint
UPDATE "members" SET "phone" = '+' || "phone" WHERE "phone" ~ '^254[17][0-9]{8}$';
