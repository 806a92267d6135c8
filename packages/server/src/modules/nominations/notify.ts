import type { MembersContext } from '../members';
import { contactsOf } from '../../db/member-store';
import { readOrganisation } from '../../db/election-store';
import { memberLanguage, t, type MessageId, type MessageValues } from '../../i18n';

/**
 * Telling the members a nomination names (docs/api.md "Nominations"): each by e-mail when they
 * gave one, else by SMS, in their language, with where to act (the Nominations page). Queued on
 * the notices sender after the change committed: the answer never waits for it and a failed send
 * is only logged.
 */
export type NominationNotice = {
  memberId: number;
  /** The text's id; its subject is `${id}Subject`. */
  id: 'nomination.named' | 'nomination.nominated' | 'nomination.withdrawn' | 'nomination.decided' | 'nomination.appealDecided';
  values: MessageValues;
};

export async function sendNominationNotices(ctx: MembersContext, notices: NominationNotice[]): Promise<void> {
  if (notices.length === 0) return;
  const ids = [...new Set(notices.map((n) => n.memberId))];
  const [rows, org] = await Promise.all([contactsOf(ctx.database.db, ids), readOrganisation(ctx.database.db)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const notice of notices) {
    const member = byId.get(notice.memberId);
    if (!member) continue;
    const language = memberLanguage(member, org.defaultLanguage);
    const values = { org: org.name, ...notice.values };
    const text = t(language, notice.id, values);
    const subject = t(language, `${notice.id}Subject` as MessageId, values);
    ctx.notices.enqueue(async () => {
      if (member.email) await ctx.delivery.sendEmail({ to: member.email, subject, text });
      else await ctx.delivery.sendSms({ to: member.phone, message: text });
    });
  }
}
