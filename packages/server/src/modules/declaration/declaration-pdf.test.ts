import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { unzipSync } from 'fflate';
import request from 'supertest';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarationText } from '../../evidence/digest';
import type { CreatePositionBody } from '@kura/contract';
import { apiClient, binaryBody, bodyOf, untyped, type ApiClient } from '../../../test/client';
import { bearer, createCandidate, createMember, createStaff, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { vote } from '../../../test/voting/election';

/**
 * The declaration as a PDF (docs/operations.md "After the close: certifying the result"): read
 * back as text, it holds the title, the organisation, every elected name, the motion's outcome,
 * the roll, the final commitment, the pack's digest and the signers with their statements, on
 * numbered A4 pages, in the asked language or the organisation's; 403 before the close.
 */
let t: TestApp;
let admin: string;
let agent: string;
let asAdmin: ApiClient;
let asAgent: ApiClient;
let anon: ApiClient;
let electionId: number;
let digest: string;
const agentKey = generateKeyPairSync('ed25519');
const rawOf = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
const STATEMENT = 'Ninathibitisha matokeo haya — hesabu ya Nairobi imekaguliwa.';

// The PDF's and the pack's bytes are read raw (binaryBody: the contract client reads JSON or text).

async function textOf(pdf: Uint8Array): Promise<{ pages: number; text: string; size: [number, number] }> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  const page = await doc.getPage(1);
  const [, , w, h] = page.view as [number, number, number, number];
  return { pages: totalPages, text: text.replace(/\s+/g, ' '), size: [Math.round(w), Math.round(h)] };
}

/** The declaration's PDF as bytes, in the asked language (none: the organisation's). */
const pdfOf = (lang?: string) =>
  binaryBody(request(t.app).get(`/api/v1/psk/results/declaration.pdf?election_id=${electionId}${lang ? `&lang=${lang}` : ''}`));

const create = async (body: CreatePositionBody) => {
  const res = await asAdmin.setup.createPosition({ body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bodyOf(res, 201).data[0]!.id;
};

beforeAll(async () => {
  t = await createTestApp({ seedReference: false, env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  agent = await tokenFor(t.ctx, 'agent', (await createStaff(t.ctx, { role: 'agent', name: 'Agnes Wakala' })).id);
  asAdmin = apiClient(t.app, admin);
  asAgent = apiClient(t.app, agent);
  anon = apiClient(t.app);
  const chair = await create({ name: 'Chair' });
  const board = await create({ name: 'Board', seats: 2, method: 'ranked' });
  const motion = await create({ name: 'Adopt the accounts', kind: 'motion' });
  const [yes, no] = (
    await t.ctx.database.sql<{ id: number }[]>`select id from motion_options where position_id = ${motion} order by id`
  ).map((r) => r.id);
  const c: Record<string, number> = {};
  for (const name of ['Wanjiru Kamau', 'Otieno Ochieng']) c[name] = (await createCandidate(t.ctx, [chair], { name })).id;
  for (const name of ['Dee Njeri', 'Eli Mwangi', 'Fay Achieng']) c[name] = (await createCandidate(t.ctx, [board], { name })).id;
  await t.ctx.voting.tallyOf(1).refreshStructure();
  const put = await asAgent.evidence.putSigningKey({ body: { public_key: rawOf(agentKey.publicKey) } });
  expect(put.status).toBe(200);
  expect((await asAdmin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
  const ballots: Record<number, number | number[]>[] = [
    { [chair]: c['Wanjiru Kamau']!, [board]: [c['Dee Njeri']!, c['Eli Mwangi']!], [motion]: yes! },
    { [chair]: c['Wanjiru Kamau']!, [board]: [c['Dee Njeri']!, c['Fay Achieng']!], [motion]: yes! },
    { [chair]: c['Otieno Ochieng']!, [board]: [c['Eli Mwangi']!], [motion]: no! },
    { [board]: [c['Eli Mwangi']!, c['Dee Njeri']!] },
  ];
  for (const choices of ballots) {
    const m = await createMember(t.ctx);
    expect((await vote(t.app, await tokenFor(t.ctx, 'voter', m.id), choices as never)).status).toBe(201);
  }
  const [e] = await t.ctx.database.sql<{ id: number }[]>`select id from election order by id limit 1`;
  electionId = e!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('GET psk/results/declaration.pdf', () => {
  it('is refused before the close, to everyone', async () => {
    for (const who of [anon, asAdmin, asAgent]) {
      const res = await who.evidence.getDeclarationPdf({ query: { election_id: electionId } });
      expect(res.status).toBe(403);
      expect(bodyOf(res, 403).message).toBe('The result is declared when the election closes');
    }
  });

  it('after the close: the title, every elected name, the digest and the signers, as text on numbered A4 pages', async () => {
    expect((await asAdmin.lifecycle.closeElection()).status).toBe(200);
    digest = bodyOf(await anon.evidence.getEvidenceDigest({ params: { id: electionId } }), 200).data.digest;
    const signed = await asAgent.evidence.postSignature({
      params: { id: electionId },
      body: {
        kind: 'certify',
        statement: STATEMENT,
        signature: sign(null, Buffer.from(declarationText(electionId, digest, 'certify', STATEMENT)), agentKey.privateKey).toString(
          'base64',
        ),
      },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);

    const final = bodyOf(await anon.lifecycle.getFinalResults({ query: { election_id: electionId } }), 200);
    const elected: string[] = final.data.flatMap((p) => ('values' in p ? p.values : []).filter((v) => v.elected).map((v) => v.name));
    expect(elected.sort()).toEqual(['Dee Njeri', 'Eli Mwangi', 'Wanjiru Kamau']);

    // Anyone may read it (the declared result is public once closed).
    const res = await pdfOf('en');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/pdf/);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The fonts are embedded (a font file in the document), not the reader's.
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);
    const { pages, text, size } = await textOf(pdf);
    expect(size).toEqual([595, 842]);
    expect(text).toContain('Declaration of results');
    for (const name of elected) expect(text).toContain(name);
    expect(text).toContain(digest);
    expect(text).toContain(final.commitment.hash);
    expect(text).toContain('Agnes Wakala (agent) certifies the result');
    expect(text).toContain(STATEMENT);
    expect(text).toMatch(/Quota: \S+\. Elected: (Dee Njeri, Eli Mwangi|Eli Mwangi, Dee Njeri)\./);
    expect(text).toContain('Outcome: PASSED');
    expect(text).toMatch(/Round 1: Elected/);
    expect(text).toMatch(new RegExp(`${final.turnout.members} members on the frozen roll`));
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // Rendered once per language and set of signatures: a flood of downloads makes no new PDF.
    const again = await pdfOf('en');
    expect(Buffer.compare(again.body as Buffer, pdf)).toBe(0);
  });

  it("in Kiswahili when asked, or when it is the organisation's language; another language is a 422 naming lang", async () => {
    const sw = await textOf((await pdfOf('sw')).body);
    expect(sw.text).toContain('Tangazo la matokeo');
    expect(sw.text).toContain('Agnes Wakala (wakala) anathibitisha matokeo');
    expect(sw.text).toContain('Matokeo: IMEPITA');
    expect(sw.text).toContain(digest);
    expect(sw.text).toContain(`Ukurasa 1 kati ya ${sw.pages}`);

    await t.ctx.database.sql`update organisation set default_language = 'sw'`;
    try {
      const byDefault = await textOf((await pdfOf()).body);
      expect(byDefault.text).toContain('Tangazo la matokeo');
    } finally {
      await t.ctx.database.sql`update organisation set default_language = 'en'`;
    }
    const bad = await anon.evidence.getDeclarationPdf({ query: { election_id: electionId, lang: untyped('fr') } });
    expect(bad.status).toBe(422);
    expect(bodyOf(bad, 422).errors?.lang).toBeDefined();
    expect((await anon.evidence.getDeclarationPdf({ query: { election_id: 999999 } })).status).toBe(404);
  });

  it("is the pack's declaration.pdf too, with the same digest and signers", async () => {
    const res = await binaryBody(request(t.app).get(`/api/v1/elections/${electionId}/evidence`).set(bearer(agent)));
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    const { text } = await textOf(files['declaration.pdf']!);
    expect(text).toContain('Declaration of results');
    expect(text).toContain(digest);
    expect(text).toContain('Agnes Wakala');
    expect(text).toContain(STATEMENT);
  });
});
