-- Google ID tokens already accepted (by SHA-256, until they expire): a token signs in or starts a
-- sign-up once, so one captured or reused token cannot be replayed or serve many guesses.
CREATE TABLE "used_id_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "used_id_tokens_expires_idx" ON "used_id_tokens" USING btree ("expires_at");