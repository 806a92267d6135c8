CREATE TABLE "nomination_supporters" (
	"nomination_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"role" text NOT NULL,
	"sort" smallint NOT NULL,
	"confirmed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "nomination_supporters_nomination_id_member_id_pk" PRIMARY KEY("nomination_id","member_id"),
	CONSTRAINT "nomination_supporters_role_ck" CHECK ("nomination_supporters"."role" in ('proposer', 'seconder'))
);
--> statement-breakpoint
CREATE TABLE "nominations" (
	"id" serial PRIMARY KEY NOT NULL,
	"election_id" integer NOT NULL,
	"position_id" integer NOT NULL,
	"nominee_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"statement" text,
	"photo_url" text,
	"accepted" boolean,
	"status" text NOT NULL,
	"checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"decision_valid" boolean,
	"decision_reason" text,
	"decision_at" timestamp with time zone,
	"override_reason" text,
	"appeal_grounds" text,
	"appeal_status" text,
	"appeal_reason" text,
	"appealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nominations_status_ck" CHECK ("nominations"."status" in ('awaiting_support', 'awaiting_acceptance', 'submitted', 'valid', 'invalid', 'withdrawn')),
	CONSTRAINT "nominations_appeal_ck" CHECK ("nominations"."appeal_status" is null or "nominations"."appeal_status" in ('pending', 'upheld', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "nominations" jsonb;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "nomination" jsonb;--> statement-breakpoint
ALTER TABLE "nomination_supporters" ADD CONSTRAINT "nomination_supporters_nomination_id_nominations_id_fk" FOREIGN KEY ("nomination_id") REFERENCES "public"."nominations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nomination_supporters" ADD CONSTRAINT "nomination_supporters_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominations" ADD CONSTRAINT "nominations_election_id_election_id_fk" FOREIGN KEY ("election_id") REFERENCES "public"."election"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominations" ADD CONSTRAINT "nominations_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominations" ADD CONSTRAINT "nominations_nominee_id_members_id_fk" FOREIGN KEY ("nominee_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nominations" ADD CONSTRAINT "nominations_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "nomination_supporters_member_idx" ON "nomination_supporters" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "nominations_election_idx" ON "nominations" USING btree ("election_id","status");--> statement-breakpoint
CREATE INDEX "nominations_position_idx" ON "nominations" USING btree ("position_id");--> statement-breakpoint
CREATE INDEX "nominations_nominee_idx" ON "nominations" USING btree ("nominee_id");