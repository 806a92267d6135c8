CREATE TABLE "ussd_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"data" jsonb NOT NULL,
	"held_until" timestamp with time zone,
	"touched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ussd_votes" (
	"member_id" integer NOT NULL,
	"position_id" integer NOT NULL,
	CONSTRAINT "ussd_votes_member_id_position_id_pk" PRIMARY KEY("member_id","position_id")
);
--> statement-breakpoint
CREATE INDEX "ussd_sessions_touched_idx" ON "ussd_sessions" USING btree ("touched_at");