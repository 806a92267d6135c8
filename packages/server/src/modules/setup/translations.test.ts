import { isTallyResult } from '@kura/contract';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiClient, bodyOf } from '../../../test/client';
import { bearer } from '../../../test/factories';
import { createVoter, vote } from '../../../test/voting/election';
import { useElectionApp } from '../../../test/voting/election-app';

/**
 * Translatable ballot content (docs/i18n.md "Ballot content"): the admin gives a position's name
 * and description, a motion's text and a candidate's statement in other languages; the ballot, the
 * live results and the declaration carry every language's text (language → fields) beside the
 * original, which stays as it was. The contract takes shipped language codes only, lengths bounded.
 */

const f = useElectionApp();
const API = '/api/v1';

const patchPosition = (id: number, body: object | string) =>
  request(f.t.app).patch(`${API}/positions/${id}`).set(bearer(f.adminToken)).send(body);

function candidateForm(id: number, fields: Record<string, string | string[]>) {
  const req = request(f.t.app).post(`${API}/edit/candidate/${id}`).set(bearer(f.adminToken));
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) req.field(key, v);
  return req;
}

describe('the admin translates positions and statements', () => {
  it('refuses a language that is not shipped, a field that is not translatable and a text too long (422)', async () => {
    const unknown = await patchPosition(f.e.chair.id, { translations: { fr: { name: 'Président' } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors['translations.fr']).toEqual(['The language must be one of en, sw']);

    const field = await patchPosition(f.e.chair.id, { translations: { sw: { title: 'Mwenyekiti' } } });
    expect(field.status).toBe(422);

    const long = await patchPosition(f.e.chair.id, { translations: { sw: { name: 'x'.repeat(101) } } });
    expect(long.status).toBe(422);
    expect(long.body.errors['translations.sw.name']).toEqual(['Must be at most 100 characters long']);

    const notObject = await patchPosition(f.e.chair.id, { translations: 'sw' });
    expect(notObject.status).toBe(422);
  });

  it('stores a position translation, answers it with the position, and drops empty texts', async () => {
    const res = await patchPosition(f.e.chair.id, {
      translations: { sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano', ignored: undefined }, en: { name: '' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.translations).toEqual({ sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano' } });
    // The original is untouched.
    expect(res.body.data.name).toBe(f.e.chair.name);

    const listed = await request(f.t.app).get(`${API}/psk/positions`).set(bearer(f.adminToken));
    const chair = listed.body.data.find((p: { id: number }) => p.id === f.e.chair.id);
    expect(chair.translations).toEqual({ sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano' } });
    // An untranslated position answers as before: no translations key.
    expect(listed.body.data.find((p: { id: number }) => p.id === f.e.treasurer.id)).not.toHaveProperty('translations');
  });

  it('creates a motion with its text translated', async () => {
    const res = await request(f.t.app)
      .post(`${API}/positions`)
      .set(bearer(f.adminToken))
      .send({
        name: 'Budget approval',
        kind: 'motion',
        description: 'Approve the 2026 budget',
        translations: { sw: { name: 'Kuidhinisha bajeti', description: 'Kuidhinisha bajeti ya 2026' } },
      });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data[0].translations).toEqual({ sw: { name: 'Kuidhinisha bajeti', description: 'Kuidhinisha bajeti ya 2026' } });
  });

  it("stores a candidate's statement translation from the multipart edit (JSON text), and refuses a bad one", async () => {
    const fields = {
      name: f.e.alice.name,
      phone: f.e.alice.phone,
      email: f.e.alice.email,
      county: 'Nairobi',
      'position_ids[]': [String(f.e.chair.id)],
      statement: 'I will serve',
    };
    const bad = await candidateForm(f.e.alice.id, { ...fields, translations: '{"xx":{"statement":"?"}}' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['translations.xx']).toEqual(['The language must be one of en, sw']);

    const ok = await candidateForm(f.e.alice.id, { ...fields, translations: JSON.stringify({ sw: { statement: 'Nitatumikia' } }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.statement).toBe('I will serve');
    expect(ok.body.data.translations).toEqual({ sw: { statement: 'Nitatumikia' } });

    // Absent keeps them.
    const kept = await candidateForm(f.e.alice.id, fields);
    expect(kept.body.data.translations).toEqual({ sw: { statement: 'Nitatumikia' } });
  });
});

describe("the ballot, the live results and the declaration carry the translations; the web shows the reader's", () => {
  it("answers the ballot with the position's title and description per language, and the statement's", async () => {
    const { token } = await createVoter(f.t.ctx);
    const res = await apiClient(f.t.app, token).ballots.getBallot();
    const groups = bodyOf(res, 200).data;
    const chair = groups.find((g) => g.position_id === f.e.chair.id)!;
    expect(chair.title).toBe(`${f.e.chair.name} National`);
    expect(chair.translations).toEqual({ sw: { name: 'Mwenyekiti', title: 'Mwenyekiti National', description: 'Anaongoza mikutano' } });
    const alice = chair.candidates.find((c) => c.id === f.e.alice.id)!;
    expect(alice.statement).toBe('I will serve');
    expect(alice.translations).toEqual({ sw: { statement: 'Nitatumikia' } });
    expect(chair.candidates.find((c) => c.id === f.e.brian.id)).not.toHaveProperty('translations');
    const treasurer = groups.find((g) => g.position_id === f.e.treasurer.id)!;
    expect(treasurer).not.toHaveProperty('translations');
    const motion = groups.find((g) => g.kind === 'motion')!;
    expect(motion.translations).toEqual({
      sw: { name: 'Kuidhinisha bajeti', title: 'Kuidhinisha bajeti National', description: 'Kuidhinisha bajeti ya 2026' },
    });
  });

  it('answers the live results and then the declaration with the translated title', async () => {
    await f.t.ctx.voting.tallyOf(1).refreshStructure();
    expect((await f.admin.elections.toggleElection({ body: { status: true } })).status).toBe(200);
    expect((await vote(f.t.app, (await createVoter(f.t.ctx)).token, { [f.e.chair.id]: f.e.alice.id })).status).toBe(201);

    const live = await request(f.t.app).get(`${API}/agent/results`).set(bearer(f.adminToken));
    expect(live.status).toBe(200);
    const liveChair = live.body.data.data.find((g: { position_id: number }) => g.position_id === f.e.chair.id);
    expect(liveChair.title).toBe(`${f.e.chair.name} National`);
    expect(liveChair.translations).toEqual({ sw: { title: 'Mwenyekiti National' } });
    const liveTreasurer = live.body.data.data.find((g: { position_id: number }) => g.position_id === f.e.treasurer.id);
    expect(liveTreasurer).not.toHaveProperty('translations');

    expect((await f.admin.lifecycle.closeElection()).status).toBe(200);
    const final = bodyOf(await apiClient(f.t.app).lifecycle.getFinalResults(), 200).data;
    const chair = final.filter(isTallyResult).find((r) => r.position_id === f.e.chair.id)!;
    expect(chair.title).toBe(`${f.e.chair.name} National`);
    expect(chair.translations).toEqual({ sw: { title: 'Mwenyekiti National' } });
    const motion = final.find((r) => r.kind === 'motion')!;
    expect(motion.translations).toEqual({ sw: { title: 'Kuidhinisha bajeti National' } });
  });
});
