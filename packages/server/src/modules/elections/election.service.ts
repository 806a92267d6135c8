import type { Election, UpdateElectionBody } from '@kura/contract';
import { eq, sql } from 'drizzle-orm';
import type { Core } from '../../core';
import type { Db, Tx } from '../../db/client';
import { election, settings } from '../../db/schema';
import type { Env } from '../../env';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { computePhase } from './phase';

type ElectionRow = typeof election.$inferSelect;

/** The election row and the switch, read together (the migration creates the row). */
export async function readElection(db: Db | Tx): Promise<{ row: ElectionRow; active: boolean }> {
  const [found] = await db
    .select({
      e: election,
      active: sql<string | null>`(select ${settings.value} from ${settings} where ${settings.key} = 'election_active')`,
    })
    .from(election)
    .where(eq(election.id, 1));
  if (!found) throw new Error('the election row is missing (migration 0005 creates it)');
  return { row: found.e, active: found.active === '1' };
}

export function toElection({ row, active }: { row: ElectionRow; active: boolean }, now: Date): Election {
  return {
    title: row.title,
    organisation: row.organisation,
    website: row.website,
    support_email: row.supportEmail,
    opens_at: row.opensAt?.toISOString() ?? null,
    closes_at: row.closesAt?.toISOString() ?? null,
    time_zone: row.timeZone,
    results_visibility: row.resultsVisibility,
    phase: computePhase({ active, openedAt: row.openedAt, closedAt: row.closedAt, opensAt: row.opensAt, closesAt: row.closesAt }, now),
    active: active ? '1' : '0',
  };
}

export async function getElection(ctx: Core): Promise<Election> {
  return toElection(await readElection(ctx.database.db), ctx.now());
}

const FIELD_LABELS: Record<keyof UpdateElectionBody, string> = {
  title: 'title',
  organisation: 'organisation',
  website: 'website',
  support_email: 'support email',
  opens_at: 'opening time',
  closes_at: 'closing time',
  time_zone: 'time zone',
  results_visibility: 'results visibility',
};

/**
 * Edits any subset of the election's settings. The schedule must close after it opens, taking the
 * stored value for the side not given (422); a closed election is final (409).
 */
export async function updateElection(ctx: Core, actor: Actor, input: UpdateElectionBody): Promise<Election> {
  const fields = (Object.keys(input) as (keyof UpdateElectionBody)[]).filter((k) => input[k] !== undefined);
  const state = await auditedTransaction(
    ctx,
    { actor, activity: 'Election settings updated', data: fields.length ? fields.map((f) => FIELD_LABELS[f]).join(', ') : 'nothing' },
    async (tx) => {
      await tx.execute(sql`select id from ${election} where id = 1 for update`);
      const { row } = await readElection(tx);
      if (row.closedAt) throw new AppError('CONFLICT', 'The election is closed; its settings can no longer change');
      const date = (v: string | null | undefined, current: Date | null) => (v === undefined ? current : v === null ? null : new Date(v));
      const opensAt = date(input.opens_at, row.opensAt);
      const closesAt = date(input.closes_at, row.closesAt);
      if (opensAt && closesAt && closesAt.getTime() <= opensAt.getTime()) {
        throw AppError.validation({ closes_at: ['The closing time must be after the opening time'] });
      }
      await tx
        .update(election)
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.organisation !== undefined ? { organisation: input.organisation } : {}),
          ...(input.website !== undefined ? { website: input.website } : {}),
          ...(input.support_email !== undefined ? { supportEmail: input.support_email } : {}),
          ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
          ...(input.results_visibility !== undefined ? { resultsVisibility: input.results_visibility } : {}),
          opensAt,
          closesAt,
          updatedAt: ctx.now(),
        })
        .where(eq(election.id, 1));
      return readElection(tx);
    },
  );
  ctx.events.emit('election.changed');
  return toElection(state, ctx.now());
}

/**
 * First-start defaults: an organisation text still empty in the database takes its variable
 * (ORG_NAME, ORG_WEBSITE, SUPPORT_EMAIL, ELECTION_TITLE) when one is set. After that the back
 * office owns the texts; the variables never overwrite them.
 */
export async function applyElectionDefaults(db: Db, env: Env): Promise<void> {
  const { row } = await readElection(db);
  const patch: Partial<ElectionRow> = {};
  if (!row.title && env.ELECTION_TITLE) patch.title = env.ELECTION_TITLE;
  if (!row.organisation && env.ORG_NAME) patch.organisation = env.ORG_NAME;
  if (!row.website && env.ORG_WEBSITE) patch.website = env.ORG_WEBSITE;
  if (!row.supportEmail && env.SUPPORT_EMAIL) patch.supportEmail = env.SUPPORT_EMAIL;
  if (Object.keys(patch).length > 0) await db.update(election).set(patch).where(eq(election.id, 1));
}

/** Marks the first switch-on (set-up ends); called inside the toggle's transaction. */
export async function markOpened(tx: Tx, at: Date): Promise<void> {
  await tx
    .update(election)
    .set({ openedAt: at })
    .where(sql`${election.id} = 1 and ${election.openedAt} is null`);
}
