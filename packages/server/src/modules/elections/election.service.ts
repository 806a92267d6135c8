import type { Election, UpdateElectionBody } from '@kura/contract';
import type { Core } from '../../core';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import {
  currentElectionId,
  lockForUpdate,
  nameElection,
  readOrganisation,
  readState,
  titleIfUntitled,
  updateConfiguration,
  updateOrganisation,
  type ElectionId,
  type ElectionRecord,
} from '../../db/election-store';
import { computePhase } from './phase';
import { defaultLanguage } from '../../i18n';

/** The election as the API answers it: the stored state and the phase computed from it. */
export function toElection(row: ElectionRecord, now: Date): Election {
  return {
    title: row.title,
    organisation: row.organisation,
    website: row.website,
    support_email: row.supportEmail,
    opens_at: row.opensAt?.toISOString() ?? null,
    closes_at: row.closesAt?.toISOString() ?? null,
    time_zone: row.timeZone,
    results_visibility: row.resultsVisibility,
    phase: computePhase(
      { active: row.votingActive, openedAt: row.openedAt, closedAt: row.closedAt, opensAt: row.opensAt, closesAt: row.closesAt },
      now,
    ),
    active: row.votingActive ? '1' : '0',
    default_language: defaultLanguage(row.defaultLanguage),
  };
}

/** GET election: its earlier shape, plus the election's `id` (whose `elections/{id}` has the rest, the roll's size among it). */
export async function getElection(ctx: Core, id: ElectionId): Promise<Election> {
  return { ...toElection(await readState(ctx.database.db, id), ctx.now()), id };
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

/** Whose each field of PUT election is: the election's own, or the organisation's (every election's). */
const FIELD_OWNER: Record<keyof UpdateElectionBody, 'election' | 'organisation'> = {
  title: 'election',
  organisation: 'organisation',
  website: 'organisation',
  support_email: 'organisation',
  opens_at: 'election',
  closes_at: 'election',
  time_zone: 'organisation',
  results_visibility: 'election',
};

/**
 * Edits any subset of the election's configuration. The schedule must close after it opens, taking the
 * stored value for the side not given (422); a closed election is final (409).
 */
export async function updateElection(ctx: Core, actor: Actor, input: UpdateElectionBody, id: ElectionId): Promise<Election> {
  const fields = (Object.keys(input) as (keyof UpdateElectionBody)[]).filter((k) => input[k] !== undefined);
  const labels = fields.length ? fields.map((f) => FIELD_LABELS[f]).join(', ') : 'nothing';
  const state = await auditedTransaction(ctx, { actor, activity: 'Election settings updated', data: labels }, async (tx, note) => {
    note.afterCommit(() => ctx.events.emit('election.changed'));
    await lockForUpdate(tx, id);
    const row = await readState(tx, id);
    // A change to the election's own fields names the election, as the change found it.
    if (fields.some((f) => FIELD_OWNER[f] === 'election')) note.data(`${nameElection(id, row.title)}; ${labels}`);
    if (row.closedAt) throw AppError.say('CONFLICT', 'error.closed.settings');
    const date = (v: string | null | undefined, current: Date | null) => (v === undefined ? current : v === null ? null : new Date(v));
    const opensAt = date(input.opens_at, row.opensAt);
    const closesAt = date(input.closes_at, row.closesAt);
    if (opensAt && closesAt && closesAt.getTime() <= opensAt.getTime()) {
      throw AppError.fieldsSaid({ closes_at: [{ id: 'field.closesAfterOpens' }] });
    }
    await updateConfiguration(
      tx,
      {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.organisation !== undefined ? { organisation: input.organisation } : {}),
        ...(input.website !== undefined ? { website: input.website } : {}),
        ...(input.support_email !== undefined ? { supportEmail: input.support_email } : {}),
        ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
        ...(input.results_visibility !== undefined ? { resultsVisibility: input.results_visibility } : {}),
        opensAt,
        closesAt,
      },
      ctx.now(),
      id,
    );
    return readState(tx, id);
  });
  return { ...toElection(state, ctx.now()), id };
}

/**
 * First-start defaults: an organisation text still empty in the database takes its variable
 * (ORG_NAME, ORG_WEBSITE, SUPPORT_EMAIL) when one is set, and the current election, while it is
 * untitled, takes ELECTION_TITLE. After that the back office owns the texts; the variables never
 * overwrite them. Nothing here needs a particular election to exist: an install whose every
 * election was deleted but one, or whose current election is gone, starts as any other
 * (docs/operations.md "The untitled election").
 */
export async function applyElectionDefaults(db: Db, env: Env): Promise<void> {
  const org = await readOrganisation(db);
  const patch: Parameters<typeof updateOrganisation>[1] = {};
  if (!org.name && env.ORG_NAME) patch.name = env.ORG_NAME;
  if (!org.website && env.ORG_WEBSITE) patch.website = env.ORG_WEBSITE;
  if (!org.supportEmail && env.SUPPORT_EMAIL) patch.supportEmail = env.SUPPORT_EMAIL;
  // The organisation's own row only: nothing at start touches an election (there may be none).
  if (Object.keys(patch).length > 0) await updateOrganisation(db, patch, new Date());
  if (!env.ELECTION_TITLE) return;
  const current = await currentElectionId(db);
  if (current === null) return;
  await titleIfUntitled(db, env.ELECTION_TITLE, current);
}
