import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branches, members, positions } from '../../src/db/schema';
import { apiClient, bodyOf, multipart, type ApiClient } from '../client';
import { createCandidate, createMember, createPosition, tokenFor } from '../factories';
import { createTestApp, type TestApp } from '../harness';

/**
 * Display names (branches, positions, candidates, members) that look like another name: a
 * zero-width character in `Nationa\u200bl`, a direction override, a line break from a CSV cell.
 * Every way in (the API and the CSV import) normalises a name (NFKC, trimmed, inner spaces
 * collapsed) and refuses invisible and control characters with a clear message.
 */

const REFUSED =
  'The name cannot contain invisible or control characters (such as a zero-width space, a direction mark, a tab or a line break)';
/** Each hides in, or breaks the line of, an otherwise ordinary name. */
const HOSTILE: [string, string][] = [
  ['zero-width space', 'Nationa\u200bl'],
  ['zero-width non-joiner', 'Kisu\u200cmu'],
  ['zero-width joiner', '\u200dKisumu'],
  ['word joiner', 'Kisu\u2060mu'],
  ['byte-order mark', '\ufeffKisumu'],
  ['right-to-left override', '\u202eumusiK'],
  ['left-to-right embedding', 'Kisumu\u202a'],
  ['pop directional formatting', 'Kisumu\u202c'],
  ['left-to-right isolate', 'Kisumu\u2066'],
  ['pop directional isolate', 'Kisumu\u2069'],
  ['right-to-left mark', 'Kisumu\u200f'],
  ['soft hyphen', 'Kisu\u00admu'],
  ['newline', 'Kisumu\nWest'],
  ['carriage return', 'Kisumu\rWest'],
  ['tab', 'Kisumu\tWest'],
  ['bell', 'Kisumu\u0007'],
  ['next line (C1)', 'Kisumu\u0085West'],
  ['line separator', 'Kisumu\u2028West'],
  ['escape', '\u001b[31mKisumu'],
];

let t: TestApp;
let admin: ApiClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('display names in the API', () => {
  it('refuses invisible and control characters in branch, position, member and candidate names (422, nothing stored)', async () => {
    const branchBefore = await t.ctx.database.db.select().from(branches);
    const positionBefore = await t.ctx.database.db.select().from(positions);
    const [branch] = branchBefore;
    const position = await createPosition(t.ctx);
    const member = await createMember(t.ctx);
    const candidate = await createCandidate(t.ctx, [position.id]);
    const accepted: string[] = [];
    for (const [label, name] of HOSTILE) {
      const attempts = {
        'new branch': await admin.setup.createBranch({ body: { name } }),
        'renamed branch': await admin.setup.updateBranch({ params: { id: branch!.id }, body: { name } }),
        'new position': await admin.setup.createPosition({ body: { name, seats: 1 } }),
        'renamed position': await admin.setup.updatePosition({ params: { id: position.id }, body: { name } }),
        member: await admin.members.updateMember({
          params: { id: member.id },
          body: { name, phone: member.phone, email: member.email, county: branch!.id, member_no: member.memberNo },
        }),
        candidate: await admin.candidates.updateCandidate({
          params: { id: candidate.id },
          body: multipart({ name, phone: candidate.phone, email: candidate.email ?? undefined, county: branch!.name }),
        }),
      };
      for (const [where, res] of Object.entries(attempts)) {
        const errors = res.status === 422 ? (res.body as { errors?: Record<string, string[]> }).errors : undefined;
        if (res.status !== 422 || !(errors?.name ?? []).includes(REFUSED)) accepted.push(`${where}: ${label} (${res.status})`);
      }
    }
    expect(accepted).toEqual([]);
    expect(await t.ctx.database.db.select().from(branches)).toEqual(branchBefore);
    const [stillPosition] = await t.ctx.database.db.select().from(positions).where(eq(positions.id, position.id));
    expect(stillPosition!.name).toBe(position.name);
    expect((await t.ctx.database.db.select().from(positions)).length).toBe(positionBefore.length + 1);
    const people = await t.ctx.database.db
      .select({ name: members.name })
      .from(members)
      .where(inArray(members.id, [member.id, candidate.id]));
    expect(people.map((p) => p.name).sort()).toEqual([member.name, candidate.name].sort());
  });

  it('normalises a name (NFKC, trimmed, inner spaces collapsed), so a look-alike is the same name', async () => {
    const created = await admin.setup.createBranch({ body: { name: '  Kisumu \u00a0\u3000 West  ' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(bodyOf(created, 201).data.name).toBe('Kisumu West');
    // Full-width letters are NFKC-equal to the plain ones: a duplicate, and "National" is refused.
    expect((await admin.setup.createBranch({ body: { name: 'Ｋｉｓｕｍｕ Ｗｅｓｔ' } })).status).toBe(409);
    const national = await admin.setup.createBranch({ body: { name: 'Ｎａｔｉｏｎａｌ' } });
    expect(national.status).toBe(422);
    expect(bodyOf(national, 422).errors?.name).toEqual(['A branch cannot be called National']);
    const position = await admin.setup.createPosition({ body: { name: ' Vice\u2003 Chair\ufb01  ', seats: 1 } });
    expect(position.status, JSON.stringify(position.body)).toBe(201);
    expect(bodyOf(position, 201).data[0]!.name).toBe('Vice Chairfi');
    // Letters with accents stay as written (composed), in any script.
    const accented = await admin.setup.createBranch({ body: { name: 'Mombasa Kusini e\u0301 Ḿ' } });
    expect(bodyOf(accented, 201).data.name).toBe('Mombasa Kusini é Ḿ');
  });
});

describe('display names in the CSV import', () => {
  const upload = (csv: string, query: { create_branches?: '1' } = {}) =>
    admin.members.importMembers({
      query,
      body: multipart({ file: { file: Buffer.from(csv), filename: 'members.csv', contentType: 'text/csv' } }),
    });
  const header = 'member_no,name,email,phone,branch';

  it('refuses a name with a line break, a zero-width or a control character, naming the line; nothing imported', async () => {
    const csv = [
      header,
      '770001,Good Person,good.person@example.org,0711007001,Nairobi',
      '770002,"Line\nBreak",line.break@example.org,0711007002,Nairobi',
      '770003,Zero\u200bWidth,zero.width@example.org,0711007003,Nairobi',
      '770004,Bell\u0007,bell@example.org,0711007004,Nairobi',
      '770005,\u202eRTL,rtl@example.org,0711007005,Nairobi',
      '770006,Branch Hider,branch.hider@example.org,0711007006,Nairobi\u200b',
    ].join('\n');
    const res = await upload(csv, { create_branches: '1' });
    expect(res.status).toBe(200);
    expect(bodyOf(res, 200).created).toBe(0);
    expect(bodyOf(res, 200).errors).toEqual([
      { line: 3, message: `name: ${REFUSED}` },
      { line: 5, message: `name: ${REFUSED}` },
      { line: 6, message: `name: ${REFUSED}` },
      { line: 7, message: `name: ${REFUSED}` },
      { line: 8, message: `branch: ${REFUSED.replace('The name', 'The branch name')}` },
    ]);
    const stored = await t.ctx.database.db
      .select()
      .from(members)
      .where(inArray(members.memberNo, ['770001', '770002', '770003', '770004', '770005', '770006']));
    expect(stored).toEqual([]);
    expect((await t.ctx.database.db.select().from(branches)).map((b) => b.name)).not.toContain('Nairobi\u200b');
  });

  it('normalises names and branch names from the file, matching a branch spelled with other spaces or widths', async () => {
    const csv = [header, '770101,"  Amina \u00a0 Wanjiru ",amina.w@example.org,0711007101,Ｎａｉｒｏｂｉ'].join('\n');
    const res = await upload(csv);
    expect(res.body).toEqual({ created: 1, updated: 0, errors: [] });
    const [row] = await t.ctx.database.db.select().from(members).where(eq(members.memberNo, '770101'));
    expect(row!.name).toBe('Amina Wanjiru');
    const [nairobi] = await t.ctx.database.db.select().from(branches).where(eq(branches.name, 'Nairobi'));
    expect(row!.branchId).toBe(nairobi!.id);
  });
});
