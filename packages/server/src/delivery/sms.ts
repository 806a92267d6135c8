import type { Logger } from 'pino';
import type { Env } from '../env';
import { DELIVERY_TIMEOUT_MS, type SmsTransport } from './types';

/** The SMS transport of SMS_PROVIDER (env validation already refuses `console` in production). */
export function createSmsTransport(env: Env, logger: Logger): SmsTransport {
  switch (env.SMS_PROVIDER) {
    case 'webhook':
      return webhookSms(env.SMS_WEBHOOK_URL!);
    case 'africastalking':
      return africasTalkingSms(env);
    default:
      return consoleSms(logger);
  }
}

function consoleSms(logger: Logger): SmsTransport {
  return {
    name: 'console',
    async send({ to, message }) {
      // Deliberately logs the text (and so the code): this is the development transport.
      logger.info({ transport: 'console-sms', to, body: message }, 'SMS not sent (SMS_PROVIDER=console): written to the log');
    },
  };
}

/** POSTs `{to, message}` as JSON; any 2xx is a success. */
function webhookSms(url: string): SmsTransport {
  return {
    name: 'webhook',
    async send({ to, message }) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, message }),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`webhook answered HTTP ${res.status}`);
    },
  };
}

/** Africa's Talking wants international numbers; members are registered with local ones (07…). */
export function toInternational(phone: string, countryCode = '254'): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.startsWith(countryCode)) return `+${digits}`;
  if (digits.startsWith('0')) return `+${countryCode}${digits.slice(1)}`;
  return `+${digits}`;
}

type AtResponse = { SMSMessageData?: { Message?: string; Recipients?: { status?: string; statusCode?: number }[] } };

function africasTalkingSms(env: Env): SmsTransport {
  return {
    name: 'africastalking',
    async send({ to, message }) {
      const form = new URLSearchParams({ username: env.AFRICASTALKING_USERNAME!, to: toInternational(to), message });
      if (env.AFRICASTALKING_SENDER_ID) form.set('from', env.AFRICASTALKING_SENDER_ID);
      const res = await fetch(env.AFRICASTALKING_URL, {
        method: 'POST',
        headers: { apiKey: env.AFRICASTALKING_API_KEY!, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const text = await res.text().catch(() => '');
      if (!res.ok) throw new Error(`Africa's Talking answered HTTP ${res.status}`);
      let parsed: AtResponse = {};
      try {
        parsed = JSON.parse(text) as AtResponse;
      } catch {
        throw new Error("Africa's Talking answered something other than JSON");
      }
      const recipient = parsed.SMSMessageData?.Recipients?.[0];
      // 100 Processed, 101 Sent, 102 Queued are accepted; anything else did not go out.
      if (!recipient || !(recipient.statusCode === 100 || recipient.statusCode === 101 || recipient.statusCode === 102)) {
        throw new Error(`Africa's Talking refused the message: ${recipient?.status ?? parsed.SMSMessageData?.Message ?? 'no recipient'}`);
      }
    },
  };
}
