import { isTallyResult } from '@kura/contract';
import { describe, expect, it } from 'vitest';
import type { UpdatePositionBody } from '@kura/contract';
import { apiClient, bodyOf, multipart, untyped } from '../../../test/client';
import { createVoter, vote } from '../../../test/voting/election';
import { useElectionApp } from '../../../test/voting/election-app';

/**
 * Translatable ballot content (docs/i18n.md "Ballot content"): the admin gives a position's name
 * and description, a motion's text and a candidate's statement in other languages; the ballot, the
 * live results and the declaration carry every language's text (language → fields) beside the
 * original, which stays as it was. The contract takes shipped language codes only, lengths bounded.
 */

const f = useElectionApp();

const patchPosition = (id: number, body: UpdatePositionBody) => f.admin.setup.updatePosition({ params: { id }, body });

/** The candidate edit form as the browser sends it (`position_ids[]`, translations as JSON text). */
const candidateForm = (id: number, fields: Record<string, string | string[]>) =>
  f.admin.candidates.updateCandidate({ params: { id }, body: multipart(fields) });

describe('the admin translates positions and statements', () => {
  it('refuses a language that is not shipped, a field that is not translatable and a text too long (422)', async () => {
    const unknown = await patchPosition(f.e.chair.id, { translations: untyped({ fr: { name: 'Président' } }) });
    expect(unknown.status).toBe(422);
    expect(bodyOf(unknown, 422).errors?.['translations.fr']).toEqual(['The language must be one of en, sw']);

    const field = await patchPosition(f.e.chair.id, { translations: untyped({ sw: { title: 'Mwenyekiti' } }) });
    expect(field.status).toBe(422);

    const long = await patchPosition(f.e.chair.id, { translations: { sw: { name: 'x'.repeat(101) } } });
    expect(long.status).toBe(422);
    expect(bodyOf(long, 422).errors?.['translations.sw.name']).toEqual(['Must be at most 100 characters long']);

    const notObject = await patchPosition(f.e.chair.id, { translations: untyped('sw') });
    expect(notObject.status).toBe(422);
  });

  it('stores a position translation, answers it with the position, and drops empty texts', async () => {
    const res = await patchPosition(f.e.chair.id, {
      translations: untyped({ sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano', ignored: undefined }, en: { name: '' } }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(bodyOf(res, 200).data.translations).toEqual({ sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano' } });
    // The original is untouched.
    expect(bodyOf(res, 200).data.name).toBe(f.e.chair.name);

    const listed = bodyOf(await f.admin.members.listPositions(), 200).data;
    const chair = listed.find((p) => p.id === f.e.chair.id)!;
    expect(chair.translations).toEqual({ sw: { name: 'Mwenyekiti', description: 'Anaongoza mikutano' } });
    // An untranslated position answers as before: no translations key.
    expect(listed.find((p) => p.id === f.e.treasurer.id)).not.toHaveProperty('translations');
  });

  it('creates a motion with its text translated', async () => {
    const res = await f.admin.setup.createPosition({
      body: {
        name: 'Budget approval',
        kind: 'motion',
        description: 'Approve the 2026 budget',
        translations: { sw: { name: 'Kuidhinisha bajeti', description: 'Kuidhinisha bajeti ya 2026' } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(bodyOf(res, 201).data[0]!.translations).toEqual({
      sw: { name: 'Kuidhinisha bajeti', description: 'Kuidhinisha bajeti ya 2026' },
    });
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
    expect(bodyOf(bad, 422).errors?.['translations.xx']).toEqual(['The language must be one of en, sw']);

    const ok = await candidateForm(f.e.alice.id, { ...fields, translations: JSON.stringify({ sw: { statement: 'Nitatumikia' } }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(bodyOf(ok, 200).data.statement).toBe('I will serve');
    expect(bodyOf(ok, 200).data.translations).toEqual({ sw: { statement: 'Nitatumikia' } });

    // Absent keeps them.
    const kept = await candidateForm(f.e.alice.id, fields);
    expect(bodyOf(kept, 200).data.translations).toEqual({ sw: { statement: 'Nitatumikia' } });
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

    const live = await f.admin.elections.getAgentResults();
    expect(live.status).toBe(200);
    const liveChair = bodyOf(live, 200).data.data.find((g) => g.position_id === f.e.chair.id)!;
    expect(liveChair.title).toBe(`${f.e.chair.name} National`);
    expect(liveChair.translations).toEqual({ sw: { title: 'Mwenyekiti National' } });
    const liveTreasurer = bodyOf(live, 200).data.data.find((g) => g.position_id === f.e.treasurer.id);
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
