import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, reminderRecipients } from '../../db/schema';
import { apiClient, bodyOf } from '../../../test/client';
import { branchId, createMember, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * Reminders go to the election's roll (SECURITY.md "The roll"): a by-election's reminder reaches its
 * roll's members who have not voted in it, never the rest of the register, nor members who joined
 * or moved into its branches after the roll froze; before the freeze, its electorate now. The dry
 * run counts exactly those.
 */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = await tokenFor(t.ctx, 'admin');
  // The rest of the register: none of them is on a Kisumu or Lake by-election's roll.
  for (let i = 0; i < 8; i++) await createMember(t.ctx, { branch: 'Nairobi' });
});
afterAll(async () => {
  await t?.close();
});

const asAdmin = () => apiClient(t.app, admin);
const remind = (id: number, dryRun: boolean) =>
  asAdmin().reminders.createReminder({
    query: { election_id: id },
    body: { channel: 'sms', message: 'Please vote, {name}', dry_run: dryRun },
  });

async function byElection(title: string, branch: string) {
  const created = await asAdmin().organisation.createElection({
    body: { title, electorate: { branch_ids: [await branchId(t.ctx, branch)] } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = bodyOf(created, 201).data.id!;
  const position = await asAdmin().setup.createPosition({ query: { election_id: id }, body: { name: `${title} motion`, kind: 'motion' } });
  expect(position.status, JSON.stringify(position.body)).toBe(201);
  const motion = bodyOf(position, 201).data[0]!.id;
  const [yes] = await t.ctx.database.sql<{ id: number }[]>`select id from motion_options where position_id = ${motion} and name = 'Yes'`;
  return { id, motion, yes: yes!.id };
}

describe('reminders of a by-election', () => {
  it('before voting opens: its electorate now, nobody else', async () => {
    const lake = [await createMember(t.ctx, { branch: 'Lake' }), await createMember(t.ctx, { branch: 'Lake' })];
    const e = await byElection('Lake by-election', 'Lake');
    const dry = await remind(e.id, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(202);
    expect(dry.body).toEqual({ id: null, recipients: lake.length });
  });

  it('once the roll froze: its roll minus those who voted, whoever joins or moves in later; the dry run says as much', async () => {
    const roll = [
      await createMember(t.ctx, { branch: 'Kisumu' }),
      await createMember(t.ctx, { branch: 'Kisumu' }),
      await createMember(t.ctx, { branch: 'Kisumu' }),
    ];
    const e = await byElection('Kisumu by-election', 'Kisumu');
    expect((await asAdmin().elections.toggleElection({ query: { election_id: e.id }, body: { status: true } })).status).toBe(200);
    expect(bodyOf(await asAdmin().organisation.getElectionById({ params: { id: e.id } }), 200).data.roll_size).toBe(3);
    // After the freeze: a newcomer joins Kisumu and a Nairobi member moves there. Neither is on the roll.
    await createMember(t.ctx, { branch: 'Kisumu', onRoll: false });
    await t.ctx.database.db
      .update(members)
      .set({ branchId: await branchId(t.ctx, 'Kisumu') })
      .where(eq(members.id, (await createMember(t.ctx, { branch: 'Nairobi' })).id));
    const voted = await apiClient(t.app, await tokenFor(t.ctx, 'voter', roll[0]!.id)).ballots.castVote({
      query: { election_id: e.id },
      body: { candidates: { [e.motion]: e.yes } },
    });
    expect(voted.status, JSON.stringify(voted.body)).toBe(201);

    const dry = await remind(e.id, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(202);
    expect(dry.body).toEqual({ id: null, recipients: 2 });

    const sent = await remind(e.id, false);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(bodyOf(sent, 202).recipients).toBe(2);
    const recipients = await t.ctx.database.db
      .select({ memberId: reminderRecipients.memberId })
      .from(reminderRecipients)
      .where(eq(reminderRecipients.reminderId, bodyOf(sent, 202).id!));
    expect(recipients.map((r) => r.memberId).sort((a, b) => a - b)).toEqual([roll[1]!.id, roll[2]!.id].sort((a, b) => a - b));
  });
});
