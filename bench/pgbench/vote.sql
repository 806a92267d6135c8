-- Figure 1's baseline: the SQL core of one psk/vote with a two-position ballot, as pgbench runs it
-- (32 clients, -M prepared) on the same Postgres. Two unique participation inserts (the primary key
-- (member_id, position_id) is what makes "one vote per position" hold) and two ballot inserts into
-- the sealed queue, in one transaction. Payload sizes match the server's sealed values (~64 and
-- 723 characters: a queued ballot is padded to 512 bytes before sealing since the security hardening). The
-- bench runs it against copies of the two tables in schema `pgb` (search_path), so it never mixes
-- with the server's own rows.
-- Each client numbers its members: client_id * 10,000,000 + n (variables persist per client; -D n=0).
\set n :n + 1
\set m :client_id * 10000000 + :n
BEGIN;
INSERT INTO participation (member_id, position_id, receipt_enc) VALUES (:m, 1, md5(random()::text) || md5(random()::text));
INSERT INTO participation (member_id, position_id, receipt_enc) VALUES (:m, 2, md5(random()::text) || md5(random()::text));
INSERT INTO ballot_queue (election_id, id, sealed) VALUES (1, md5(random()::text), left(repeat(md5(random()::text), 23), 723));
INSERT INTO ballot_queue (election_id, id, sealed) VALUES (1, md5(random()::text), left(repeat(md5(random()::text), 23), 723));
COMMIT;
