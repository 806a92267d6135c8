import type { Logger } from 'pino';
import type { Env } from '../env';
import { createEmailTransport } from './email';
import { createSmsTransport } from './sms';
import { DeliveryError, describe, type Delivery } from './types';

/**
 * The email and SMS transports the configuration names, behind one interface. Any transport
 * failure surfaces as a DeliveryError whose message is safe to log (never the text sent).
 */
export function createDelivery(env: Env, logger: Logger): Delivery {
  const email = createEmailTransport(env, logger);
  const sms = createSmsTransport(env, logger);
  const wrap = async (channel: 'email' | 'sms', transport: string, send: () => Promise<void>) => {
    try {
      await send();
    } catch (error) {
      if (error instanceof DeliveryError) throw error;
      throw new DeliveryError(channel, transport, describe(error));
    }
  };
  return {
    sendEmail: (message) => wrap('email', email.name, () => email.send(message)),
    sendSms: (message) => wrap('sms', sms.name, () => sms.send(message)),
    close: () => email.close?.(),
  };
}
