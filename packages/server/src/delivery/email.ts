import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Logger } from 'pino';
import type { Env } from '../env';
import { DELIVERY_TIMEOUT_MS, type EmailTransport } from './types';

/**
 * SMTP via nodemailer when SMTP_URL is set; otherwise the message is written to the log
 * (development only: env validation refuses a production start without SMTP_URL).
 */
export function createEmailTransport(env: Env, logger: Logger): EmailTransport {
  if (!env.SMTP_URL) return consoleEmail(logger);
  const options: SMTPTransport.Options = {
    url: env.SMTP_URL,
    connectionTimeout: DELIVERY_TIMEOUT_MS,
    greetingTimeout: DELIVERY_TIMEOUT_MS,
    socketTimeout: DELIVERY_TIMEOUT_MS,
  };
  // nodemailer is loaded on the first mail: most requests never send one, and start-up stays quick.
  let transporter: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  return {
    name: 'smtp',
    async send({ to, subject, text }) {
      transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options));
      await (await transporter).sendMail({ from: env.MAIL_FROM, to, subject, text });
    },
    close: () => void transporter?.then((t) => t.close()),
  };
}

function consoleEmail(logger: Logger): EmailTransport {
  return {
    name: 'console',
    async send({ to, subject, text }) {
      // Deliberately logs the message (and so the code): this is the development transport.
      logger.info({ transport: 'console-email', to, subject, body: text }, 'email not sent (no SMTP_URL): written to the log');
    },
  };
}
