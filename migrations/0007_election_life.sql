ALTER TABLE "election" ADD COLUMN "scheduled_open_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "final_commitment_id" bigint;--> statement-breakpoint
ALTER TABLE "election" ADD COLUMN "audit" jsonb;