import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import type { MembersContext } from './context';
import type { Tx } from '../../db/client';
import { votersIn } from '../../db/participation-store';
import type { Actor } from '../../auth/actor';
import { DeliveryError } from '../../delivery';
import { AppError } from '../../errors';
import { memberLanguage, t } from '../../i18n';
import { recordSuccesses } from '../../lib/activity-log';
import { maskEmail, maskPhone } from '../../lib/masking';
import { lockMemberVotes } from '../../db/locks';
import { readOrganisation, underWayElectionIds } from '../elections';

/**
 * A member's phone and email are where their sign-in codes go: changing them (an admin edit, a
 * CSV re-import) redirects the member's account. Every change is logged with masked old and new
 * values, the member is told on the old phone or email, and while voting is under way in an
 * election a member who voted in it keeps theirs unless the admin confirms the change.
 */

/** `email` null: the member has none. */
export type Contact = { phone: string; email: string | null };

/** A member as stored and the contact details an edit or import would give them. */
export type ProposedContact = {
  id: number;
  memberNo: string;
  name: string;
  old: Contact;
  new: Contact;
  /** The member's language (null: the organisation's default): the notice is written in it. */
  language?: string | null;
};

export type ContactChange = ProposedContact & {
  /** The member had voted while voting was open, and the admin confirmed the change. */
  confirmedAfterVote: boolean;
};

export type ContactChanges = {
  changes: ContactChange[];
  /** Members who voted while voting is open, whose change was not confirmed (nothing written yet). */
  refused: ProposedContact[];
  /** For the notice: whose contact details these are. */
  organisation: string;
  supportEmail: string | null;
  /** The organisation's default language: the notice's language for a member without one. */
  defaultLanguage: string;
};

const CHUNK = 500;

const changedFields = (c: ProposedContact) =>
  [c.old.phone !== c.new.phone ? 'phone' : null, c.old.email !== c.new.email ? 'email' : null].filter((f) => f !== null);

/**
 * Which of these proposals change a phone or email, and which of those are refused: while voting
 * is under way in an election (open or paused, not closed; docs/decisions/004), a member who voted
 * in that election keeps their contact details unless `confirm`. A vote in an election that has
 * closed no longer holds them. Takes each such member's vote lock first (the lock cast_vote
 * takes), so a vote in flight finishes before the check and a later one sees the new details.
 */
export async function checkContactChanges(tx: Tx, proposed: ProposedContact[], confirm: boolean): Promise<ContactChanges> {
  const changing = proposed.filter((p) => changedFields(p).length > 0);
  const org = await readOrganisation(tx);
  const result: ContactChanges = {
    changes: [],
    refused: [],
    organisation: org.name,
    supportEmail: org.supportEmail,
    defaultLanguage: org.defaultLanguage,
  };
  if (changing.length === 0) return result;
  const underWay = await underWayElectionIds(tx);
  const voted = new Set<number>();
  if (underWay.length > 0) {
    const ids = changing.map((c) => c.id).sort((a, b) => a - b);
    await lockMemberVotes(tx, ids);
    for (let i = 0; i < ids.length; i += CHUNK) {
      for (const id of await votersIn(tx, ids.slice(i, i + CHUNK), underWay)) voted.add(id);
    }
  }
  for (const c of changing) {
    if (!voted.has(c.id)) result.changes.push({ ...c, confirmedAfterVote: false });
    else if (confirm) result.changes.push({ ...c, confirmedAfterVote: true });
    else result.refused.push(c);
  }
  return result;
}

/** The edit's answer to a refused change: 409 with the issue the admin's screen recognises. */
export function contactChangeRefused(): AppError {
  return AppError.say('CONFLICT', 'error.contactAfterVote', undefined, { issue: CONTACT_CHANGE_AFTER_VOTE });
}

/** `phone 07******89 → 07******12; email j***@example.org → k***@example.net`: never a whole value. */
export function describeContactChange(c: ProposedContact): string {
  return changedFields(c)
    .map((f) =>
      f === 'phone'
        ? `phone ${maskPhone(c.old.phone)} → ${maskPhone(c.new.phone)}`
        : `email ${maskEmail(c.old.email) || '(none)'} → ${maskEmail(c.new.email) || '(none)'}`,
    )
    .join('; ');
}

/** One activity row per changed member, on the member's record, naming who changed it. In the caller's transaction. */
export async function recordContactChanges(ctx: MembersContext, actor: Actor, { changes }: ContactChanges, tx: Tx): Promise<void> {
  await recordSuccesses(
    ctx,
    changes.map((c) => ({
      name: c.name,
      activity: 'Member contact changed',
      userId: c.id,
      userType: 'voter' as const,
      ip: actor.ip,
      data:
        `member no ${c.memberNo}: ${describeContactChange(c)}; by ${actor.role} ${actor.name}` +
        (c.confirmedAfterVote ? '; confirmed by the admin after the member voted' : ''),
    })),
    tx,
  );
}

/**
 * Tells each member on the old phone and/or email that theirs changed, through the background
 * sender: the answer does not wait for it and a failed send is only logged. Called after commit.
 */
export function sendContactChangeNotices(
  ctx: MembersContext,
  { changes, organisation, supportEmail, defaultLanguage }: ContactChanges,
): void {
  const org = organisation.trim() || ctx.env.APP_NAME;
  const contact = supportEmail ?? org;
  for (const c of changes) {
    const fields = changedFields(c);
    const language = memberLanguage(c, defaultLanguage);
    const text = t(language, 'contactChange.text', { org, contact, fields: fields.length > 1 ? 'both' : fields[0]! });
    const subject = t(language, 'contactChange.subject', { org });
    for (const channel of fields) {
      // A member who had no e-mail is told on the phone only.
      const oldEmail = c.old.email;
      if (channel === 'email' && !oldEmail) continue;
      ctx.notices.enqueue(async () => {
        try {
          if (channel === 'phone') await ctx.delivery.sendSms({ to: c.old.phone, message: text });
          else await ctx.delivery.sendEmail({ to: oldEmail!, subject, text });
        } catch (error) {
          const reason = error instanceof DeliveryError ? error.message : 'delivery failed';
          ctx.logger.warn({ channel, memberId: c.id, reason }, 'contact change notice not delivered');
        }
      });
    }
  }
}
