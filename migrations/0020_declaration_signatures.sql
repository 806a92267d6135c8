CREATE TABLE "declaration_signatures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"election_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"key_id" integer NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"fingerprint" text NOT NULL,
	"public_key" text NOT NULL,
	"kind" text NOT NULL,
	"statement" text NOT NULL,
	"digest" text NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "declaration_signatures_signer_uq" ON "declaration_signatures" USING btree ("election_id","staff_id");--> statement-breakpoint
CREATE INDEX "signing_keys_staff_idx" ON "signing_keys" USING btree ("staff_id","id");