import type { FinalResultsResponse } from '@kura/contract';
import { sql } from 'drizzle-orm';
import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import yazl from 'yazl';
import type { Db } from '../../db/client';
import { candidatesWithBallots, positionBallotPages } from '../../db/ballot-box';
import { candidateIdsOf } from '../../db/candidacy-store';
import { readState, rollEntries, nameElection, type ElectionId } from '../../db/election-store';
import { memberNames } from '../../db/member-store';
import { nominationsRecord } from '../../db/nomination-store';
import { positionRowsById } from '../../db/position-store';
import { AppError } from '../../errors';
import { electionActivityPages } from '../../lib/activity-log';
import { positionTitle } from '../../lib/position-title';
import { packDigest, type Manifest } from '../../evidence/digest';
import { commitmentsUpTo, type ResultsContext } from '../results';
import { finaliseElection, getFinalResults } from './closing';

/**
 * The evidence pack of a closed election (docs/operations.md "After the close: certifying the
 * result"): every file is produced as a stream from the database (never the whole pack in
 * memory), hashed once for the manifest and produced again into the zip. Every file inside the
 * manifest's `files` is made only of what is fixed at the close (the stored declaration, the
 * frozen roll, the mixed ballots in receipt order, the commitments up to the final one, the audit
 * at close, activity rows up to the close), so the digest never changes afterwards.
 */

type Chunk = string | Buffer;
export type PackFile = { path: string; produce: () => AsyncIterable<Chunk> };

const PAGE = 5000;
/**
 * A BLT file's page: each page sorts the position's ballots by receipt again (no index holds that
 * order), so fewer, larger pages cost less; 50,000 rows are a few MB (BENCHMARKS.md figure 10).
 */
const BALLOT_PAGE = 50_000;

/** One CSV cell: quoted when it holds a comma, quote or line break. */
const cell = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvLine = (values: (string | number | null)[]) => `${values.map(cell).join(',')}\n`;

/** BLT names cannot hold a double quote or a line break (as `psk/results/ballots`). */
export const bltName = (name: string) => name.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');

/** The closed, finalised election (403 before the close; the closing statements finished first). */
async function closedState(ctx: ResultsContext, id: ElectionId) {
  let row = await readState(ctx.database.db, id);
  if (!row.closedAt) throw AppError.say('FORBIDDEN', 'error.evidenceAfterClose');
  if (row.finalCommitmentId === null || !row.audit) {
    await finaliseElection(ctx, id);
    row = await readState(ctx.database.db, id);
  }
  if (row.finalCommitmentId === null || !row.closedAt) throw new Error(`election ${id} is closed but not finalised`);
  return { ...row, closedAt: row.closedAt, finalCommitmentId: row.finalCommitmentId };
}

/**
 * One candidates position's ballots as a BLT file: its candidates numbered 1..n by id (those
 * standing and any that hold a ballot), named as declared; one line per ballot in receipt order
 * (receipts are random, so the order says nothing about who voted or when), each ballot's
 * candidates in the voter's order for a ranked position, by number otherwise. Read in pages.
 */
async function* positionBlt(
  db: Db,
  electionId: ElectionId,
  position: { id: number; title: string; seats: number },
  declaredNames: Map<number, string>,
): AsyncIterable<string> {
  const standing = await candidateIdsOf(db, position.id);
  const voted = await candidatesWithBallots(db, electionId, position.id);
  const ids = [...new Set([...standing.map((s) => s.id), ...voted.map((v) => v.id)])].sort((a, b) => a - b);
  const number = new Map(ids.map((id, k) => [id, k + 1]));
  yield `${ids.length} ${position.seats}\n`;
  let current: { receipt: string; numbers: number[] } | null = null;
  const line = (numbers: number[]) => `1 ${numbers.join(' ')} 0\n`;
  for await (const page of positionBallotPages(db, electionId, position.id, BALLOT_PAGE)) {
    let out = '';
    for (const b of page) {
      if (current && current.receipt !== b.receipt) {
        out += line(current.numbers);
        current = null;
      }
      current ??= { receipt: b.receipt, numbers: [] };
      current.numbers.push(number.get(b.candidateId)!);
    }
    if (out) yield out;
  }
  if (current) yield line(current.numbers);
  yield '0\n';
  const extra = ids.filter((id) => !declaredNames.has(id));
  const names = new Map(declaredNames);
  if (extra.length) for (const m of await memberNames(db, extra)) names.set(m.id, m.name);
  let tail = '';
  for (const id of ids) tail += `"${bltName(names.get(id) ?? `Candidate ${id}`)}"\n`;
  tail += `"${bltName(position.title)}"\n`;
  yield tail;
}

/** Candidate names as the declaration holds them (fixed at the close; a member renamed later does not change the pack). */
function declaredNamesOf(results: FinalResultsResponse, positionId: number): Map<number, string> {
  const r = results.data.find((d) => d.position_id === positionId);
  if (!r || r.kind === 'motion') return new Map();
  return new Map(r.values.map((v) => [v.candidate_id, v.name]));
}

/** The files inside the manifest's `files`, in the order the pack holds them. */
export async function evidenceFiles(ctx: ResultsContext, id: ElectionId): Promise<PackFile[]> {
  const state = await closedState(ctx, id);
  const { db } = ctx.database;
  const results = await getFinalResults(ctx, id);
  const own = await positionRowsById(db, id);
  const json = (value: unknown) =>
    async function* () {
      yield `${JSON.stringify(value, null, 2)}\n`;
    };
  const files: PackFile[] = [
    { path: 'results.json', produce: json(results) },
    {
      path: 'roll.csv',
      produce: async function* () {
        yield 'member_no,branch\n';
        const rows = await db.execute<{ member_no: string; branch: string }>(sql`
          select roll.member_no, roll.branch from (${rollEntries(id)}) roll order by roll.member_no collate "C"`);
        let out = '';
        for (const r of rows) out += csvLine([r.member_no, r.branch]);
        yield out;
      },
    },
    // Every candidates position the results declare: one without candidates has no ballot and no
    // declared result, and a BLT of no candidates would name nothing to recount.
    ...own
      .filter((p) => p.kind === 'candidates' && results.data.some((d) => d.position_id === p.id))
      .map((p) => ({
        path: `ballots/${p.id}.blt`,
        produce: () => positionBlt(db, id, { id: p.id, title: positionTitle(p), seats: p.seats }, declaredNamesOf(results, p.id)),
      })),
    {
      path: 'commitments.json',
      produce: async function* () {
        const rows = await commitmentsUpTo(db, id, state.finalCommitmentId);
        yield `${JSON.stringify(
          rows.map((r) => ({ at: r.at.toISOString(), count: r.count, hash: r.hash, reason: r.reason })),
          null,
          2,
        )}\n`;
      },
    },
    { path: 'audit.json', produce: json(state.audit) },
    // Claims are kept with the election once that feature records them; none yet.
    { path: 'claims.json', produce: json([]) },
    // Every nomination, its supporters, checks, decision and appeal (no contact detail, no photo).
    {
      path: 'nominations.json',
      produce: async function* () {
        yield `${JSON.stringify(await nominationsRecord(db, id), null, 2)}\n`;
      },
    },
    {
      path: 'activity.csv',
      produce: async function* () {
        // The election's rows (those naming it), up to and including its close: no IP address and
        // no free-form data (which may name a contact detail).
        yield 'id,created_at,name,activity,user_type,status\n';
        // The close's own row is written as its transaction commits (a moment after closed_at): up to it.
        for await (const page of electionActivityPages(db, nameElection(id, ''), state.closedAt, PAGE)) {
          let out = '';
          for (const r of page) out += csvLine([r.id, r.createdAt.toISOString(), r.name, r.activity, r.userType, r.status]);
          if (out) yield out;
        }
      },
    },
  ];
  return files;
}

async function hashOf(file: PackFile): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of file.produce()) hash.update(chunk);
  return hash.digest('hex');
}

/** `GET elections/{id}/evidence/digest`: the manifest (403 before the close). */
export async function evidenceManifest(ctx: ResultsContext, id: ElectionId, files?: PackFile[]): Promise<Manifest> {
  const hashes: Record<string, string> = {};
  for (const file of files ?? (await evidenceFiles(ctx, id))) hashes[file.path] = await hashOf(file);
  return { election_id: id, files: hashes, digest: packDigest(hashes) };
}

/** Files outside `files`: they carry the digest and the signatures, so signing does not change what is signed. */
export type PackExtras = (manifest: Manifest) => Promise<PackFile[]>;

/**
 * The pack as a zip stream: the manifest first, then every file of `files`, produced again from
 * the database (the manifest's hashes were taken from a first pass), then the extras.
 */
export async function evidenceZip(ctx: ResultsContext, id: ElectionId, extras: PackExtras): Promise<NodeJS.ReadableStream> {
  const files = await evidenceFiles(ctx, id);
  const manifest = await evidenceManifest(ctx, id, files);
  const zip = new yazl.ZipFile();
  const mtime = new Date(0);
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });
  for (const file of [...files, ...(await extras(manifest))])
    zip.addReadStream(Readable.from(file.produce(), { objectMode: false }), file.path, { mtime });
  zip.end();
  return zip.outputStream;
}
