import type { Core } from '../core';
import { DeliveryError, type Delivery } from '../delivery';
import { t, type Language } from '../i18n';
import { recordActivity } from '../lib/activity-log';
import { CODE_TTL_MS, discardCode, type IssuedCode } from './one-time-codes';
import type { Role } from './sessions';

const minutes = Math.round(CODE_TTL_MS / 60_000);

/** Who gets an issued one-time code, how, and how the activity log names the request. */
export type CodeDeliveryInput = {
  role: Role;
  subjectId: number;
  channel: 'sms' | 'email';
  to: string;
  name: string;
  ip: string;
  activity: string;
  /** The language the code goes out in: the member's, the organisation's default for staff. */
  language: Language;
  /** Words the SMS for another purpose than signing in (the code is the same kind). */
  smsMessage?: 'sms.signInCode' | 'sms.signUpCode';
};

/**
 * Hands an issued code to the transport; a failed delivery leaves no usable code, is logged and
 * recorded, and answers false. Every sign-in that sends a code (web and USSD) goes through here.
 */
export async function deliverCode(ctx: Core, deps: { delivery: Delivery }, input: CodeDeliveryInput, issued: IssuedCode): Promise<boolean> {
  // The activity row either way: who asked for a code, for which account, from where.
  const row = { name: input.name, activity: input.activity, userId: input.subjectId, userType: input.role, ip: input.ip };
  const values = { code: issued.code, app: ctx.env.APP_NAME, minutes };
  try {
    if (input.channel === 'sms') {
      await deps.delivery.sendSms({ to: input.to, message: t(input.language, input.smsMessage ?? 'sms.signInCode', values) });
    } else {
      await deps.delivery.sendEmail({
        to: input.to,
        subject: t(input.language, 'email.codeSubject', values),
        text: t(input.language, 'email.codeText', values),
      });
    }
  } catch (error) {
    await discardCode(ctx, issued.challengeId);
    const reason = error instanceof DeliveryError ? error.message : 'delivery failed';
    ctx.logger.warn({ channel: input.channel, subjectId: input.subjectId, reason }, 'one-time code not delivered');
    await recordActivity(ctx, { ...row, status: 'failed', data: 'delivery failed' });
    return false;
  }
  await recordActivity(ctx, { ...row, status: 'success' });
  return true;
}
