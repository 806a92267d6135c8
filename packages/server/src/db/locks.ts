/**
 * The Postgres advisory lock ids of every module, in one place so no two collide. Advisory locks
 * live in the lock manager (memory), so taking one per vote costs no disk write, unlike
 * `SELECT ... FOR SHARE` on the hot election row. Locks keyed by `hashtext(...)` of a purpose and
 * subject (one-time codes, help reports) are taken where they are used.
 */

/** Held shared by every vote transaction, exclusively by a toggle: a vote commits entirely before or after it. */
export const ELECTION_LOCK = 7_262_000_001;
/** Namespace of the per-member lock (two-int form): one member's concurrent votes run one at a time. */
export const MEMBER_LOCK_NAMESPACE = 72_620_002;
/** Serialises the mixer across processes, so no two move the same queued ballots. */
export const MIX_LOCK = 7_262_000_003;
/** Serialises commitments across processes, so a periodic one is recorded once per interval. */
export const COMMITMENT_LOCK = 7_262_000_004;
/** Namespace of the per-member reminder lock (two-int form): two campaigns never reach one member within the hour. */
export const REMINDER_MEMBER_LOCK_NAMESPACE = 72_620_005;
/** Serialises the closing statements across processes, so the final commitment is recorded once. */
export const FINALISE_LOCK = 7_262_000_006;
/** Serialises migrations across server processes starting at once (db/migrate.ts). */
export const MIGRATION_LOCK = 72_311_905;
