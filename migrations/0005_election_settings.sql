CREATE TABLE "election" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"organisation" text DEFAULT '' NOT NULL,
	"website" text,
	"support_email" text,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"results_visibility" text DEFAULT 'live' NOT NULL,
	"opened_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "election_single_row_ck" CHECK ("election"."id" = 1),
	CONSTRAINT "election_results_visibility_ck" CHECK ("election"."results_visibility" in ('live', 'staff', 'after_close'))
);
--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "statement" text;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_seats_ck" CHECK ("positions"."seats" >= 1);--> statement-breakpoint
-- The single election row (ADR 004). An installation that has already switched voting on, or
-- holds votes, is past set-up.
INSERT INTO "election" ("id", "opened_at")
  SELECT 1, CASE WHEN EXISTS (SELECT 1 FROM "settings" WHERE "key" = 'election_active' AND "value" = '1')
                   OR EXISTS (SELECT 1 FROM "participation") THEN now() END
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "settings" ("key", "value") VALUES ('election_active', '0') ON CONFLICT DO NOTHING;
