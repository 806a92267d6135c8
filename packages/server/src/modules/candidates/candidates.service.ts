import type { MembersContext } from '../members';
import type { Candidate, Position, Translations } from '@kura/contract';
import type { Db, Tx } from '../../db/client';
import { candidacyPositions } from '../../db/candidacy-store';
import { candidateRecords, lockMemberRow, updateMemberRow } from '../../db/member-store';
import { AppError } from '../../errors';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { removeUploads, storeImages, uploadUrl, type UploadFile } from '../../lib/uploads';
import { storedTranslations } from '../../lib/position-title';
import { type ElectionId } from '../elections';
import { assertNotClosed, assertNotClosedIn } from '../lifecycle';
import {
  applyMemberEdit,
  assertDeclaredIdentityKept,
  lockElectionForCandidacies,
  recordContactChanges,
  replacePositions,
  sendContactChangeNotices,
} from '../members';

export type CandidateEdit = {
  name: string;
  phone: string;
  /** null: none. */
  email: string | null;
  county: string;
  position_ids: number[];
  statement?: string;
  /** The statement in other languages (docs/i18n.md "Ballot content"); undefined keeps them. */
  translations?: Translations<'statement'>;
};

/** Candidates with their positions; `memberIds` narrows to those members (candidate or not). */
async function loadCandidates(db: Db | Tx, electionId: ElectionId, memberIds?: number[]): Promise<Candidate[]> {
  const links = await candidacyPositions(db, electionId, memberIds);
  const positionsOf = new Map<number, Position[]>();
  for (const { memberId, ...p } of links) (positionsOf.get(memberId) ?? positionsOf.set(memberId, []).get(memberId)!).push(p);
  const ids = memberIds ?? [...positionsOf.keys()];
  if (ids.length === 0) return [];
  const rows = await candidateRecords(db, ids);
  return rows.map(({ translations, ...r }) => {
    const stored = storedTranslations(translations);
    return { ...r, ...(stored ? { translations: stored } : {}), positions: positionsOf.get(r.id) ?? [] };
  });
}

/** Every member standing for at least one position, with those positions and their photo. */
export async function listCandidates(ctx: MembersContext, electionId: ElectionId): Promise<Candidate[]> {
  return loadCandidates(ctx.database.db, electionId);
}

/**
 * The candidate edit dialog: member fields, the position set and an optional new photo, all or
 * nothing. The photo is checked and written before the transaction (so a bad image changes
 * nothing), removed again if the transaction fails, and the old one removed once it commits.
 * Once the election is closed its candidates are part of the declared result: no edit (409).
 */
export async function updateCandidate(
  ctx: MembersContext,
  actor: Actor,
  id: number,
  input: CandidateEdit,
  image: UploadFile | undefined,
  electionId: ElectionId,
): Promise<Candidate> {
  await assertNotClosed(ctx, 'its candidates', electionId);
  const [stored] = image ? await storeImages(ctx, [image]) : [];
  const photoUrl = stored ? uploadUrl(stored) : undefined;
  let previousPhoto: string | null = null;
  let candidate: Candidate;
  try {
    candidate = await auditedTransaction(
      ctx,
      {
        actor,
        activity: 'Candidate updated',
        data: `member id ${id}, positions [${input.position_ids.join(', ')}]${photoUrl ? ', new photo' : ''}${input.statement !== undefined ? ', statement' : ''}${input.translations !== undefined ? ', translations' : ''}`,
      },
      async (tx, note) => {
        note.afterCommit(() => {
          ctx.events.emit('candidates.changed');
          ctx.events.emit('members.changed');
        });
        // Before the member row: the position set may change (see lockElectionForCandidacies).
        await lockElectionForCandidacies(tx, electionId);
        // Under the lock a close takes: one that committed since the check above is seen.
        await assertNotClosedIn(tx, 'its candidates', electionId);
        const member = await lockMemberRow(tx, { id });
        if (!member) throw AppError.say('NOT_FOUND', 'error.candidateNotFound');
        previousPhoto = member.photoUrl;
        // A candidate of another election that closed keeps the name its declared result shows.
        await assertDeclaredIdentityKept(tx, id, { name: input.name, member_no: member.memberNo });
        const contacts = await applyMemberEdit(tx, id, { ...input, member_no: member.memberNo }, ctx.now());
        await recordContactChanges(ctx, actor, contacts, tx);
        const changed = contacts;
        note.afterCommit(() => sendContactChangeNotices(ctx, changed));
        await replacePositions(tx, id, input.position_ids, electionId);
        if (photoUrl) await updateMemberRow(tx, id, { photoUrl });
        if (input.statement !== undefined) await updateMemberRow(tx, id, { statement: input.statement || null });
        if (input.translations !== undefined) await updateMemberRow(tx, id, { translations: input.translations });
        return (await loadCandidates(tx, electionId, [id]))[0]!;
      },
    );
  } catch (error) {
    if (stored) await removeUploads(ctx, [stored]);
    throw error;
  }
  if (photoUrl && previousPhoto !== photoUrl) await removeUploads(ctx, [previousPhoto]);
  return candidate;
}
