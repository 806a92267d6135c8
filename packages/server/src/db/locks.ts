/**
 * The Postgres advisory lock ids of every module, in one place so no two collide. Advisory locks
 * live in the lock manager (memory), so taking one per vote costs no disk write, unlike
 * `SELECT ... FOR SHARE` on the hot election row. Locks keyed by `hashtext(...)` of a purpose and
 * subject (one-time codes, help reports) are taken where they are used.
 */

/**
 * The installation-wide election lock. Held shared by every vote and by every change of one
 * election's state (`lockElection`); taken exclusively by a change that spans elections or whose
 * election is not known up front (a candidacy, a position, a branch rename): it waits for every
 * vote and close in flight, and every later one waits for it.
 */
export const ELECTION_LOCK = 7_262_000_001;
/**
 * Namespace of the per-election lock (two-int form: namespace, election id). Held shared by every
 * vote in that election, exclusively by its toggle, scheduled opening, close and deletion: a vote
 * commits entirely before or after them. Another election's votes never wait for it
 * (docs/decisions/009-a-ballot-box-per-election.md).
 */
export const ELECTION_LOCK_NAMESPACE = 72_620_007;
/** Namespace of the per-member lock (two-int form): one member's concurrent votes run one at a time. */
export const MEMBER_LOCK_NAMESPACE = 72_620_002;
/** Namespace of the per-election mixer lock (two-int form): no two passes (or a pass and the close) move one election's queued ballots. */
export const MIX_LOCK_NAMESPACE = 72_620_003;
/** Namespace of the per-election commitment lock (two-int form): a periodic commitment is recorded once per interval; another election's commitment never waits for it. */
export const COMMITMENT_LOCK_NAMESPACE = 72_620_004;
/** Namespace of the per-member reminder lock (two-int form): two campaigns never reach one member within the hour. */
export const REMINDER_MEMBER_LOCK_NAMESPACE = 72_620_005;
/** Namespace of the per-election closing-statements lock (two-int form): the final commitment is recorded once; another election's close runs alongside. */
export const FINALISE_LOCK_NAMESPACE = 72_620_006;
/** Serialises migrations across server processes starting at once (db/migrate.ts). */
/** Namespace of the per-member register-claims lock (two-int form): one member's claims are counted and filed one at a time. */
export const CLAIM_MEMBER_LOCK_NAMESPACE = 72_620_008;
export const MIGRATION_LOCK = 72_311_905;
