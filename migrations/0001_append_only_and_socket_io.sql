-- Commitments are a public, append-only record: refuse any UPDATE or DELETE.
CREATE OR REPLACE FUNCTION commitments_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'commitments are append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER commitments_no_update BEFORE UPDATE OR DELETE ON commitments
  FOR EACH ROW EXECUTE FUNCTION commitments_append_only();
--> statement-breakpoint
-- Used by @socket.io/postgres-adapter for payloads too large for NOTIFY (scale-out mode).
CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id bigserial UNIQUE,
  created_at timestamptz DEFAULT NOW(),
  payload bytea
);
