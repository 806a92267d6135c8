import { countStv, parseBlt, type BltElection } from '@kura/count';
import { unzipSync } from 'fflate';
import {
  declarationSubject,
  declarationText,
  fingerprintOf,
  packDigest,
  pdfSealState,
  rawPublicKey,
  rollHash,
  sha256Hex,
  verifyEd25519,
  type Manifest,
} from './digest';

/**
 * The offline check of an evidence pack (`verify-evidence FILE.zip`, docs/operations.md "After
 * the close: certifying the result"). It needs no server, database or configuration: only the
 * zip, the counting engine (@kura/count) and node:crypto. Each check is one line; the pack passes
 * when none fails.
 */

export type CheckLine = { ok: boolean; check: string; detail: string };
export type EvidenceReport = { ok: boolean; lines: CheckLine[]; election_id: number | null; digest: string | null };

/** Files a pack holds beside those the manifest lists. */
const OUTSIDE = new Set(['manifest.json', 'declaration.pdf', 'signatures.json', 'keys.json']);

type Json = Record<string, unknown>;
const decoder = new TextDecoder('utf-8', { fatal: true });
const bltName = (name: string) => name.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');

function parseJson(bytes: Uint8Array | undefined): unknown {
  if (!bytes) return undefined;
  return JSON.parse(decoder.decode(bytes));
}

/** Parses a CSV (RFC 4180 quoting) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (ch !== '\r') cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const counted = (pairs: [string, number | string][]) =>
  pairs
    .map(([n, c]) => `${n}=${c}`)
    .sort()
    .join('; ');

export function verifyEvidence(zipBytes: Uint8Array): EvidenceReport {
  const lines: CheckLine[] = [];
  const pass = (check: string, detail: string) => lines.push({ ok: true, check, detail });
  const fail = (check: string, detail: string) => lines.push({ ok: false, check, detail });
  const done = (manifest: Partial<Manifest> | null): EvidenceReport => ({
    ok: lines.every((l) => l.ok),
    lines,
    election_id: typeof manifest?.election_id === 'number' ? manifest.election_id : null,
    digest: typeof manifest?.digest === 'string' ? manifest.digest : null,
  });

  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zipBytes);
  } catch (err) {
    fail('zip', `not a readable zip file (${err instanceof Error ? err.message : String(err)})`);
    return done(null);
  }
  // Directories carry no content.
  for (const name of Object.keys(entries)) if (name.endsWith('/')) delete entries[name];

  let manifest: Manifest;
  try {
    const m = parseJson(entries['manifest.json']) as Manifest | undefined;
    if (!m) throw new Error('missing');
    if (typeof m.election_id !== 'number' || typeof m.digest !== 'string' || !m.files || typeof m.files !== 'object')
      throw new Error('not {election_id, files, digest}');
    manifest = m;
    pass('manifest', `election ${m.election_id}, ${Object.keys(m.files).length} files`);
  } catch (err) {
    fail('manifest', `manifest.json ${err instanceof Error ? err.message : String(err)}`);
    return done(null);
  }

  const computed = packDigest(manifest.files);
  if (computed === manifest.digest) pass('digest', manifest.digest);
  else fail('digest', `the manifest's files hash to ${computed}, not the digest ${manifest.digest}`);

  // Every file against the manifest; anything else in the pack is a failure too.
  for (const [path, expected] of Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const bytes = entries[path];
    if (!bytes) fail(`file ${path}`, 'missing from the pack');
    else if (sha256Hex(bytes) !== expected) fail(`file ${path}`, `SHA-256 ${sha256Hex(bytes)} is not the manifest's ${expected}`);
    else pass(`file ${path}`, expected);
  }
  for (const path of Object.keys(entries).sort())
    if (!(path in manifest.files) && !OUTSIDE.has(path)) fail(`file ${path}`, 'in the pack but not in the manifest');

  // declaration.pdf is outside `files` (it carries the signatures so far): present, a PDF, and its
  // Subject names this pack's election and digest.
  const pdf = entries['declaration.pdf'];
  if (!pdf) fail('declaration', 'declaration.pdf is missing from the pack');
  else {
    const text = Buffer.from(pdf).toString('latin1');
    if (!text.startsWith('%PDF-') || !text.trimEnd().endsWith('%%EOF')) fail('declaration', 'declaration.pdf is not a PDF file');
    else if (!text.includes(`(${declarationSubject(manifest.election_id, manifest.digest)})`))
      fail('declaration', "declaration.pdf does not name this pack's election and digest");
    else {
      const seal = pdfSealState(pdf);
      if (seal === 'missing') fail('declaration', 'declaration.pdf carries no seal (its own SHA-256)');
      else if (seal === 'mismatch') fail('declaration', 'declaration.pdf was changed after it was made: its seal is not its hash');
      else pass('declaration', `declaration.pdf names election ${manifest.election_id} and the digest, and its seal holds`);
    }
  }

  // Signatures against keys.json, over the declaration text with this pack's digest.
  try {
    const keys = (parseJson(entries['keys.json']) ?? []) as { fingerprint: string; public_key: string; name: string; role: string }[];
    const signatures = (parseJson(entries['signatures.json']) ?? []) as {
      election_id: number;
      name: string;
      role: string;
      fingerprint: string;
      kind: 'certify' | 'dispute';
      statement: string;
      signature: string;
    }[];
    if (!Array.isArray(keys) || !Array.isArray(signatures)) throw new Error('keys.json and signatures.json must be arrays');
    const byFingerprint = new Map<string, { public_key: string; name: string; role: string }>();
    for (const k of keys) {
      const raw = typeof k.public_key === 'string' ? rawPublicKey(k.public_key) : null;
      if (!raw) fail(`key ${k.fingerprint}`, `${k.name}: not an Ed25519 public key`);
      else if (fingerprintOf(raw) !== k.fingerprint)
        fail(`key ${k.fingerprint}`, `${k.name}: the fingerprint is not the key's (${fingerprintOf(raw)})`);
      else byFingerprint.set(k.fingerprint, k);
    }
    if (signatures.length === 0) pass('signatures', 'none yet');
    for (const s of signatures) {
      const label = `signature ${s.name} (${s.role}, ${s.kind})`;
      const key = byFingerprint.get(s.fingerprint);
      if (!key) fail(label, `no valid key with fingerprint ${s.fingerprint} in keys.json`);
      else if (key.name !== s.name || key.role !== s.role)
        fail(label, `keys.json names the key ${s.fingerprint} as ${key.name} (${key.role}), not ${s.name} (${s.role})`);
      else if (s.election_id !== manifest.election_id) fail(label, `signs election ${s.election_id}, not ${manifest.election_id}`);
      else if (!verifyEd25519(key.public_key, declarationText(manifest.election_id, manifest.digest, s.kind, s.statement), s.signature))
        fail(label, `does not verify with key ${s.fingerprint} over this pack's digest`);
      else pass(label, `key ${s.fingerprint}: "${s.statement}"`);
    }
  } catch (err) {
    fail('signatures', `signatures.json or keys.json unreadable (${err instanceof Error ? err.message : String(err)})`);
  }

  // The recount, the roll and the commitments need results.json.
  let results: Json;
  try {
    results = parseJson(entries['results.json']) as Json;
    if (!results || !Array.isArray(results.data)) throw new Error('no results');
  } catch (err) {
    fail('results', `results.json unreadable (${err instanceof Error ? err.message : String(err)})`);
    return done(manifest);
  }
  const declared = results.data as Json[];
  const commitment = results.commitment as { at: string; count: number; hash: string } | undefined;

  // Recount every position's ballots and compare with the declared result.
  let rows = 0;
  for (const r of declared) if (r.kind === 'motion') rows += Number(r.yes) + Number(r.no) + Number(r.abstain);
  for (const r of declared.filter((d) => d.kind !== 'motion')) {
    const path = `ballots/${String(r.position_id)}.blt`;
    const label = `recount ${String(r.title)} (position ${String(r.position_id)})`;
    const bytes = entries[path];
    if (!bytes) {
      fail(label, `${path} is missing`);
      continue;
    }
    let blt: BltElection;
    try {
      blt = parseBlt(decoder.decode(bytes));
    } catch (err) {
      fail(label, `${path} does not read as a BLT file (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    for (const b of blt.ballots) rows += b.count * b.ranking.length;
    const nameOf = (n: number) => blt.candidates[n - 1]?.name ?? `#${n}`;
    if (r.method === 'ranked') {
      try {
        const result = countStv({ seats: blt.seats, candidates: blt.candidates, ballots: blt.ballots, seed: commitment?.hash });
        const mine = counted(result.values.map((v) => [`${v.name}${v.elected ? '*' : ''}`, v.votes]));
        const theirs = counted(
          (r.values as { name: string; votes: string; elected: boolean }[]).map((v) => [
            `${bltName(v.name)}${v.elected ? '*' : ''}`,
            v.votes,
          ]),
        );
        if (result.quota !== r.quota) fail(label, `quota ${result.quota}, declared ${String(r.quota)}`);
        else if (mine !== theirs) fail(label, `recount gives ${mine}; declared ${theirs}`);
        else pass(label, `STV: quota ${result.quota}, elected ${result.elected.map(nameOf).join(', ') || 'none'}`);
      } catch (err) {
        fail(label, `the count failed (${err instanceof Error ? err.message : String(err)})`);
      }
    } else {
      const tally = new Map<string, number>();
      for (const b of blt.ballots) for (const n of b.ranking) tally.set(nameOf(n), (tally.get(nameOf(n)) ?? 0) + b.count);
      const mine = counted([...tally.entries()].filter(([, c]) => c > 0));
      const theirs = counted(
        (r.values as { name: string; count: number }[]).filter((v) => v.count > 0).map((v) => [bltName(v.name), v.count]),
      );
      if (mine !== theirs) fail(label, `recount gives ${mine || 'no votes'}; declared ${theirs || 'no votes'}`);
      else pass(label, `${String(r.method ?? 'plurality')}: ${mine || 'no votes'}`);
    }
  }
  for (const path of Object.keys(entries).filter((p) => p.startsWith('ballots/')))
    if (!declared.some((d) => `ballots/${String(d.position_id)}.blt` === path))
      fail(`recount ${path}`, 'no declared result for this position');

  // The roll: its hash, and its size and branches against the declared turnout.
  try {
    const csv = parseCsv(decoder.decode(entries['roll.csv'] ?? new Uint8Array()));
    const [header, ...roll] = csv;
    if (header?.join(',') !== 'member_no,branch') throw new Error('the header is not member_no,branch');
    const turnout = results.turnout as { members: number; branches: { branch: string; members: number }[] } | undefined;
    const byBranch = new Map<string, number>();
    for (const [, branch] of roll) byBranch.set(branch ?? '', (byBranch.get(branch ?? '') ?? 0) + 1);
    const declaredBranches = counted((turnout?.branches ?? []).map((b) => [b.branch, b.members]));
    const hash = rollHash(roll.map(([no]) => no ?? ''));
    if (turnout?.members !== roll.length)
      fail('roll', `roll.csv lists ${roll.length} members; the declared turnout counts ${String(turnout?.members)}`);
    else if (counted([...byBranch.entries()]) !== declaredBranches)
      fail('roll', `roll.csv's branches (${counted([...byBranch.entries()])}) are not the declared turnout's (${declaredBranches})`);
    else {
      const expected = typeof results.roll_hash === 'string' ? results.roll_hash : null;
      if (expected === null) fail('roll', `results.json declares no roll hash to check roll.csv's (${hash}) against`);
      else if (expected !== hash) fail('roll', `roll.csv hashes to ${hash}, not the declared roll hash ${expected}`);
      else pass('roll', `${roll.length} members, hash ${hash} as declared`);
    }
  } catch (err) {
    fail('roll', `roll.csv unreadable (${err instanceof Error ? err.message : String(err)})`);
  }

  // The commitments: never fewer ballots, the last one is the declared final commitment, and its
  // count is the ballot rows in the pack. Its hash is over receipts, which the pack leaves out (a
  // receipt with its choice would let a voter prove their vote): the hash is checked for equality
  // with the declared one; audit:verify recomputes it from the database.
  try {
    const history = parseJson(entries['commitments.json']) as { at: string; count: number; hash: string }[];
    if (!Array.isArray(history) || history.length === 0) throw new Error('no commitments');
    const last = history[history.length - 1]!;
    const decreasing = history.findIndex((c, i) => i > 0 && c.count < history[i - 1]!.count);
    if (decreasing > 0) fail('commitments', `commitment ${decreasing + 1} counts fewer ballots than the one before`);
    else if (!commitment || last.hash !== commitment.hash || last.count !== commitment.count || last.at !== commitment.at)
      fail('commitments', `the last commitment (${last.hash}) is not the declared final commitment (${String(commitment?.hash)})`);
    else if (last.count !== rows)
      fail('commitments', `the final commitment covers ${last.count} ballot rows; the pack's ballots hold ${rows}`);
    else pass('commitments', `${history.length} commitments; the final one (${last.hash}) covers the ${rows} ballot rows in the pack`);
  } catch (err) {
    fail('commitments', `commitments.json unreadable (${err instanceof Error ? err.message : String(err)})`);
  }

  try {
    const audit = parseJson(entries['audit.json']) as { ok: boolean; problems: string[] } | null;
    if (!audit) fail('audit', 'no audit at close');
    else if (!audit.ok) fail('audit', `the audit at close found problems: ${audit.problems.join('; ')}`);
    else pass('audit', 'the audit at close passed');
  } catch (err) {
    fail('audit', `audit.json unreadable (${err instanceof Error ? err.message : String(err)})`);
  }
  return done(manifest);
}
