import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import request from 'supertest';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keygenCommand, signCommand, verifyEvidenceCommand } from '../../cli/evidence';
import { declarationText } from '../../evidence/digest';
import { verifyEvidence } from '../../evidence/verify';
import { apiClient, binaryBody, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { bearer, createCandidate, createMember, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { vote } from '../../../test/voting/election';

/**
 * The declaration, signed, and the evidence pack (docs/operations.md "After the close: certifying
 * the result"): keys registered before the close sign, the server checks every signature, the pack
 * is checked offline by `verify-evidence`, and one byte changed in any kind of file fails the check
 * that covers it.
 */
let t: TestApp;
let admin: string;
let agent: string;
let lateAgent: string;
let early: string;
const earlyKey = newKeyPair();
let electionId: number;
let zip: Uint8Array;
let digest: string;
let firstFiles: Record<string, string>;
const members: { phone: string; email: string }[] = [];
const voters: { id: number; memberNo: string; name: string; phone: string; email: string; branchId: number }[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'kura-evidence-'));

function newKeyPair() {
  return generateKeyPairSync('ed25519');
}
const rawOf = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
const newKey = newKeyPair;
const pdfText = async (bytes: Uint8Array) => (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text;
const signText = (privateKey: KeyObject, text: string) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stdin: async () => Buffer.alloc(0) } };
};

/** The client of a session (the staff's tokens are made in beforeAll), and of none. */
const as = (token: string): ApiClient => apiClient(t.app, token);
const anon = () => apiClient(t.app);
const signingKey = (token: string, publicKey: string) => as(token).evidence.putSigningKey({ body: { public_key: publicKey } });
const signatures = (token: string, body: { kind: 'certify' | 'dispute'; statement: string; signature: string }) =>
  as(token).evidence.postSignature({ params: { id: electionId }, body });
const evidenceDigest = async () => bodyOf(await anon().evidence.getEvidenceDigest({ params: { id: electionId } }), 200).data;

const create = async (body: Parameters<ApiClient['setup']['createPosition']>[0]['body']) => {
  const res = await as(admin).setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0]!.id;
};
const agentKey = newKey();

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  agent = await tokenFor(t.ctx, 'agent', (await createStaff(t.ctx, { role: 'agent', name: 'Agnes Agent' })).id);
  lateAgent = await tokenFor(t.ctx, 'agent', (await createStaff(t.ctx, { role: 'agent', name: 'Late Agent' })).id);
  const chair = await create({ name: 'Chair' });
  const board = await create({ name: 'Board', seats: 2, method: 'ranked' });
  const motion = await create({ name: 'Adopt the accounts', kind: 'motion' });
  const [yes, no] = (
    await t.ctx.database.sql<{ id: number }[]>`select id from motion_options where position_id = ${motion} order by id`
  ).map((r) => r.id);
  const c: Record<string, number> = {};
  for (const name of ['Wanjiru "Wa" Kamau', 'Otieno']) c[name] = (await createCandidate(t.ctx, [chair], { name })).id;
  for (const name of ['Dee', 'Eli', 'Fay']) c[name] = (await createCandidate(t.ctx, [board], { name })).id;
  await t.ctx.voting.tallyOf(1).refreshStructure();
  // The staff's keys are registered before the close: the agent's by hand, the admin's by `keygen`.
  expect((await signingKey(agent, rawOf(agentKey.publicKey))).status).toBe(200);
  early = await tokenFor(t.ctx, 'admin', (await createStaff(t.ctx, { role: 'admin', name: 'Early Admin' })).id);
  expect((await signingKey(early, rawOf(earlyKey.publicKey))).status).toBe(200);
  const keygen = io();
  expect(await keygenCommand.run(['--out', join(tmp, 'admin.key')], keygen.io)).toBe(0);
  expect(statSync(join(tmp, 'admin.key')).mode & 0o777).toBe(0o600);
  const put = await signingKey(admin, keygen.out[0]!);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect(bodyOf(put, 200).data).toMatchObject({ role: 'admin', fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });

  expect((await as(admin).elections.toggleElection({ body: { status: true } })).status).toBe(200);
  const ballots: Record<number, number | number[]>[] = [
    { [chair]: c['Wanjiru "Wa" Kamau']!, [board]: [c.Dee!, c.Eli!], [motion]: yes! },
    { [chair]: c['Wanjiru "Wa" Kamau']!, [board]: [c.Dee!, c.Fay!], [motion]: yes! },
    { [chair]: c.Otieno!, [board]: [c.Fay!], [motion]: no! },
    { [board]: [c.Eli!, c.Dee!, c.Fay!] },
    { [chair]: c.Otieno!, [motion]: yes! },
  ];
  for (const choices of ballots) {
    const m = await createMember(t.ctx);
    members.push({ phone: m.phone, email: m.email });
    voters.push(m);
    const res = await vote(t.app, await tokenFor(t.ctx, 'voter', m.id), choices);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const [e] = await t.ctx.database.sql<{ id: number }[]>`select id from election order by id limit 1`;
  electionId = e!.id;
  // Before the close there is nothing to certify.
  expect((await anon().evidence.getEvidenceDigest({ params: { id: electionId } })).status).toBe(403);
  expect((await as(admin).evidence.getEvidence({ params: { id: electionId } })).status).toBe(403);
  expect((await as(admin).lifecycle.closeElection()).status).toBe(200);
  const d = await anon().evidence.getEvidenceDigest({ params: { id: electionId } });
  expect(d.status, JSON.stringify(d.body)).toBe(200);
  digest = bodyOf(d, 200).data.digest;
  firstFiles = bodyOf(d, 200).data.files;
});
afterAll(async () => {
  await t?.close();
});

// Raw HTTP: the pack's bytes are the point (the typed client reads a body as JSON or text).
const download = async () => {
  const res = await binaryBody(request(t.app).get(`/api/v1/elections/${electionId}/evidence`).set(bearer(agent)));
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/zip/);
  return new Uint8Array(res.body as Buffer);
};

describe('signing the declaration', () => {
  it('takes the admin signature made by `cli sign` and the agent signature made with node:crypto', async () => {
    const signed = io();
    const args = ['--key', join(tmp, 'admin.key'), '--election', String(electionId), '--digest', digest, '--kind', 'certify'];
    expect(await signCommand.run([...args, '--statement', 'I certify this result.'], signed.io)).toBe(0);
    const res = await signatures(admin, { kind: 'certify', statement: 'I certify this result.', signature: signed.out[0]! });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(bodyOf(res, 201).data).toMatchObject({
      election_id: electionId,
      role: 'admin',
      kind: 'certify',
      statement: 'I certify this result.',
    });

    const statement = 'Dispute: the Board count in Mombasa.';
    const agentSig = signText(agentKey.privateKey, declarationText(electionId, digest, 'dispute', statement));
    const ok = await signatures(agent, { kind: 'dispute', statement, signature: agentSig });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // One per signer and election.
    const again = await signatures(agent, { kind: 'dispute', statement, signature: agentSig });
    expect(again.status).toBe(409);
    const list = await anon().evidence.listSignatures({ params: { id: electionId } });
    expect(bodyOf(list, 200).data.map((s) => `${s.name}:${s.kind}`)).toEqual([expect.stringMatching(/:certify$/), 'Agnes Agent:dispute']);
  });

  it('refuses a signature over anything but the exact declaration text (422)', async () => {
    const texts = [
      declarationText(electionId, digest, 'dispute', 'I certify'), // another kind
      declarationText(electionId + 1, digest, 'certify', 'I certify'), // another election
      declarationText(electionId, '0'.repeat(64), 'certify', 'I certify'), // another digest
      `kura-declaration-v1\n${electionId}\n${digest}\ncertify\nI certify\n`, // a trailing line break
    ];
    for (const text of texts) {
      const res = await signatures(early, { kind: 'certify', statement: 'I certify', signature: signText(earlyKey.privateKey, text) });
      expect(res.status, `${JSON.stringify(text)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(bodyOf(res, 422).errors?.signature).toBeDefined();
    }
    // Another key's signature over the right text.
    const other = signText(newKey().privateKey, declarationText(electionId, digest, 'certify', 'I certify'));
    const res = await signatures(early, { kind: 'certify', statement: 'I certify', signature: other });
    expect(res.status).toBe(422);
    // Malformed input is a 4xx in the envelope, never a 500.
    for (const body of [
      {},
      { kind: 'bless', statement: 'x', signature: 'x' },
      { kind: 'certify', statement: '', signature: `${'A'.repeat(86)}==` },
    ]) {
      const bad = await signatures(early, untyped(body));
      expect([400, 422]).toContain(bad.status);
      expect((bad.body as { message?: unknown }).message).toEqual(expect.any(String));
    }
    expect((await signingKey(early, 'not a key')).status).toBe(422);
    expect((await signingKey(early, `${'A'.repeat(42)}==`)).status).toBe(422);
    // A voter has no signing key.
    const voter = await tokenFor(t.ctx, 'voter', (await createMember(t.ctx, { onRoll: false })).id);
    expect((await signingKey(voter, rawOf(newKey().publicKey))).status).toBe(403);
  });

  it('refuses a key registered after the close (403)', async () => {
    const key = newKey();
    expect((await signingKey(lateAgent, rawOf(key.publicKey))).status).toBe(200);
    const res = await signatures(lateAgent, {
      kind: 'certify',
      statement: 'Late',
      signature: signText(key.privateKey, declarationText(electionId, digest, 'certify', 'Late')),
    });
    expect(res.status).toBe(403);
  });
});

describe('the evidence pack', () => {
  it('holds every file of the manifest, passes verify-evidence, and has no phone, e-mail or IP address', async () => {
    zip = await download();
    const files = unzipSync(zip);
    const manifest = JSON.parse(strFromU8(files['manifest.json']!));
    expect(manifest.files).toEqual(firstFiles);
    expect(manifest.digest).toBe(digest);
    expect(Object.keys(manifest.files).sort()).toEqual(
      expect.arrayContaining([
        'results.json',
        'roll.csv',
        'commitments.json',
        'audit.json',
        'claims.json',
        'nominations.json',
        'activity.csv',
      ]),
    );
    expect(Object.keys(manifest.files).filter((p) => p.startsWith('ballots/'))).toHaveLength(2);
    for (const extra of ['declaration.pdf', 'signatures.json', 'keys.json']) expect(files[extra]).toBeDefined();
    expect(manifest.files['declaration.pdf']).toBeUndefined();
    // The election's activity up to and including its close; the signing afterwards is not in it.
    const activity = strFromU8(files['activity.csv']!);
    expect(activity).toMatch(/^id,created_at,name,activity,user_type,status\n/);
    expect(activity).toContain('Closed the election');
    expect(activity).not.toContain('Certified the result');
    // The same pack again: nothing in it moves after the close.
    expect((await evidenceDigest()).digest).toBe(digest);

    // Every file, the PDF read as its text: no contact detail, no IP address, no receipt (a receipt
    // with its choice is a ballot-to-voter link); the ballots name no member number either.
    const memberNos = strFromU8(files['roll.csv']!)
      .split('\n')
      .slice(1, -1)
      .map((l) => l.split(',')[0]!);
    expect(memberNos.length).toBeGreaterThan(0);
    for (const [path, bytes] of Object.entries(files)) {
      const text = path.endsWith('.pdf') ? await pdfText(bytes) : strFromU8(bytes);
      if (path.endsWith('.pdf')) expect(text).toContain(digest);
      if (path.startsWith('ballots/')) for (const no of memberNos) expect(text, path).not.toMatch(new RegExp(`\\b${no}\\b`));
      for (const m of members) {
        expect(text, path).not.toContain(m.phone);
        expect(text, path).not.toContain(m.phone.replace(/^0/, '+254'));
        expect(text, path).not.toContain(m.email);
      }
      expect(text, path).not.toMatch(/@example\.org|127\.0\.0\.1|::ffff|VP-[0-9A-Z]{4}-/);
    }

    const report = verifyEvidence(zip);
    expect(report.lines.filter((l) => !l.ok)).toEqual([]);
    expect(report.lines.map((l) => l.check)).toEqual(
      expect.arrayContaining([
        'digest',
        'roll',
        'commitments',
        'audit',
        'declaration',
        expect.stringMatching(/^recount Chair/),
        expect.stringMatching(/^signature Agnes Agent/),
      ]),
    );
    const path = join(tmp, 'pack.zip');
    await import('node:fs/promises').then((fs) => fs.writeFile(path, zip));
    const cli = io();
    expect(await verifyEvidenceCommand.run([path], cli.io)).toBe(0);
    expect(cli.out.at(-1)).toMatch(/passed every check/);
  });

  /** The pack with one byte of `path` changed (a digit, letter or quote moved by one). */
  const tampered = (path: string, find: RegExp | ((text: string) => number)) => {
    const files = unzipSync(zip);
    const bytes = new Uint8Array(files[path]!);
    // Byte offsets: latin1 maps each byte to one character (declaration.pdf is binary).
    const text = Buffer.from(bytes).toString('latin1');
    const at = typeof find === 'function' ? find(text) : text.search(find);
    expect(at, `${path}: ${String(find)}`).toBeGreaterThanOrEqual(0);
    bytes[at] = bytes[at]! === 0x31 ? 0x32 : bytes[at]! + 1 > 0x7e ? 0x30 : bytes[at]! + 1;
    return zipSync({ ...files, [path]: bytes });
  };

  it('fails, naming the check, when one byte changes in any kind of file', async () => {
    const blt = Object.keys(unzipSync(zip)).find((p) => p.startsWith('ballots/'))!;
    const cases: [string, RegExp | ((t: string) => number), RegExp][] = [
      ['results.json', /"count": \d/, /^file results\.json$/],
      ['roll.csv', /\n\d/, /^file roll\.csv$/],
      [blt, /\n1 \d/, new RegExp(`^file ${blt.replace('.', '\\.')}$`)],
      ['commitments.json', /"count"/, /^file commitments\.json$/],
      ['audit.json', /true/, /^file audit\.json$/],
      ['claims.json', /\[/, /^file claims\.json$/],
      ['nominations.json', /\[/, /^file nominations\.json$/],
      ['activity.csv', /\n\d/, /^file activity\.csv$/],
      ['manifest.json', (s) => s.indexOf('"digest"') + 12, /^digest$/],
      ['signatures.json', /I certify/, /^signature /],
      ['keys.json', (s) => s.indexOf('"public_key"') + 16, /^(key|signature) /],
      ['declaration.pdf', (s) => s.indexOf(' digest ', s.indexOf('kura-declaration-v1')) + 10, /^declaration$/],
      // Anywhere else in the PDF: inside a compressed stream, in the page tree, in its seal.
      ['declaration.pdf', (s) => Math.floor(s.length / 2), /^declaration$/],
      ['declaration.pdf', (s) => s.indexOf('/Type /Page') + 7, /^declaration$/],
      ['declaration.pdf', (s) => s.indexOf('(kura-seal-sha256:') + 30, /^declaration$/],
      ['signatures.json', (s) => s.indexOf('"name"') + 9, /^signature /],
      ['keys.json', (s) => s.indexOf('"role"') + 9, /^signature /],
    ];
    for (const [path, find, check] of cases) {
      const report = verifyEvidence(tampered(path, find));
      const failed = report.lines.filter((l) => !l.ok).map((l) => l.check);
      expect(report.ok, path).toBe(false);
      expect(failed, path).toEqual(expect.arrayContaining([expect.stringMatching(check)]));
    }
    // And the command exits non-zero, naming the failure.
    const path = join(tmp, 'bad.zip');
    await import('node:fs/promises').then((fs) => fs.writeFile(path, tampered('roll.csv', /\n\d/)));
    const cli = io();
    expect(await verifyEvidenceCommand.run([path], cli.io)).toBe(1);
    expect(cli.err.join('\n')).toMatch(/FAILED \d check\(s\): file roll\.csv/);
    expect(await verifyEvidenceCommand.run([join(tmp, 'missing.zip')], io().io)).toBe(1);
    // A pack without its declaration fails too.
    const { ['declaration.pdf']: _pdf, ...withoutPdf } = unzipSync(zip);
    expect(
      verifyEvidence(zipSync(withoutPdf))
        .lines.filter((l) => !l.ok)
        .map((l) => l.check),
    ).toEqual(['declaration']);
    expect(verifyEvidence(new Uint8Array([1, 2, 3])).ok).toBe(false);
  });

  it('a roll.csv that is not the declared roll fails the roll check even with a consistent manifest', async () => {
    // results.json (inside the digest) carries the frozen roll's hash; a member number swapped in
    // roll.csv, with the manifest re-hashed to match, keeps the size and branches but not the hash.
    const files = unzipSync(zip);
    const results = JSON.parse(strFromU8(files['results.json']!));
    expect(results.roll_hash).toMatch(/^[0-9a-f]{64}$/);
    const text = strFromU8(files['roll.csv']!).replace(/\n([^,\n]+),/, '\nX$1,');
    const { createHash } = await import('node:crypto');
    const { packDigest } = await import('../../evidence/digest');
    const manifest = JSON.parse(strFromU8(files['manifest.json']!));
    manifest.files['roll.csv'] = createHash('sha256').update(text).digest('hex');
    manifest.digest = packDigest(manifest.files);
    const forged = zipSync({
      ...files,
      'roll.csv': new TextEncoder().encode(text),
      'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)),
    });
    const lines = verifyEvidence(forged).lines.filter((l) => !l.ok);
    expect(lines.find((l) => l.check === 'roll')?.detail).toMatch(/not the declared roll hash/);
    // Without the hash in results.json the check cannot pass by default.
    const { roll_hash: _hash, ...bare } = results;
    const noHash = new TextEncoder().encode(`${JSON.stringify(bare, null, 2)}\n`);
    manifest.files['results.json'] = createHash('sha256').update(noHash).digest('hex');
    manifest.digest = packDigest(manifest.files);
    const stripped = zipSync({ ...files, 'results.json': noHash, 'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)) });
    expect(
      verifyEvidence(stripped)
        .lines.filter((l) => !l.ok)
        .map((l) => l.check),
    ).toContain('roll');
  });

  it('a recount that disagrees with results.json fails even with a consistent manifest', async () => {
    // A forger who rewrites a BLT and its manifest entry changes the digest: the signatures fail.
    const files = unzipSync(zip);
    const blt = Object.keys(files).find((p) => p.startsWith('ballots/'))!;
    const text = strFromU8(files[blt]!).replace(/\n1 (\d+)/, '\n1 $1\n1 $1');
    const { createHash } = await import('node:crypto');
    const { packDigest } = await import('../../evidence/digest');
    const manifest = JSON.parse(strFromU8(files['manifest.json']!));
    manifest.files[blt] = createHash('sha256').update(text).digest('hex');
    manifest.digest = packDigest(manifest.files);
    const forged = zipSync({
      ...files,
      [blt]: new TextEncoder().encode(text),
      'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)),
    });
    const failed = verifyEvidence(forged)
      .lines.filter((l) => !l.ok)
      .map((l) => l.check);
    expect(failed).toEqual(
      expect.arrayContaining([expect.stringMatching(/^recount /), expect.stringMatching(/^signature /), 'commitments']),
    );
  });

  it('renumbering a member of the frozen roll or renaming their branch after the close changes nothing in the pack', async () => {
    // The roll keeps each member's number and branch name as at the freeze: roll.csv, the roll's
    // hash, the turnout by branch and so the digest the signatures cover stay as they were.
    const before = await evidenceDigest();
    const rollOf = async () => bodyOf(await anon().register.getRoll({ params: { id: electionId } }), 200).data;
    const rollBefore = await rollOf();
    const v = voters[0]!;
    const renumbered = await as(admin).members.updateMember({
      params: { id: v.id },
      body: { name: v.name, phone: v.phone, email: v.email, county: v.branchId, member_no: `${v.memberNo}-NEW` },
    });
    expect(renumbered.status, JSON.stringify(renumbered.body)).toBe(200);
    const renamed = await as(admin).setup.updateBranch({ params: { id: v.branchId }, body: { name: `Renamed ${Date.now()}` } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);

    const after = await evidenceDigest();
    expect(after).toEqual(before);
    expect(await rollOf()).toEqual(rollBefore);
    const files = unzipSync(await download());
    expect(strFromU8(files['roll.csv']!)).toContain(`${v.memberNo},`);
    expect(strFromU8(files['roll.csv']!)).not.toContain(`${v.memberNo}-NEW`);
    expect(verifyEvidence(zipSync(files)).lines.filter((l) => !l.ok)).toEqual([]);
  });
});
