import type { Language } from '@kura/contract';
import type { MembersContext } from './context';
import type { SignedInActor } from '../../auth/actor';
import { updateMemberRow } from '../../db/member-store';
import { recordActivity } from '../../lib/activity-log';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * `PUT me/language` (docs/api.md "Languages"): the signed-in member sets their own language, or
 * null for the organisation's default. Codes, reminders and notices go out in it from now on, and
 * the next session carries it to the web app on any device.
 */
export async function setOwnLanguage(
  ctx: MembersContext,
  actor: SignedInActor,
  language: Language | null,
): Promise<{ language: string | null }> {
  await inTransaction(ctx, 'Own language set', async (tx) => {
    await updateMemberRow(tx, actor.id, { language, updatedAt: ctx.now() });
    await recordActivity(
      ctx,
      {
        name: actor.name,
        activity: 'Language changed',
        userId: actor.id,
        userType: 'voter',
        ip: actor.ip,
        data: language ?? "the organisation's default",
        status: 'success',
      },
      tx,
    );
  });
  return { language };
}
