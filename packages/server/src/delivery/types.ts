/** An email to one person. */
export type EmailMessage = { to: string; subject: string; text: string };
/** A text message to one phone. */
export type SmsMessage = { to: string; message: string };

export type EmailTransport = {
  readonly name: string;
  send(message: EmailMessage): Promise<void>;
  close?(): void;
};

export type SmsTransport = {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
};

/** How one-time codes reach people: one interface, the transport chosen by configuration. */
export type Delivery = {
  sendEmail(message: EmailMessage): Promise<void>;
  sendSms(message: SmsMessage): Promise<void>;
  close(): void;
};

/**
 * A transport failed (refused connection, provider error, timeout). The message is safe to
 * log: it never contains the text being delivered.
 */
export class DeliveryError extends Error {
  constructor(
    readonly channel: 'email' | 'sms',
    readonly transport: string,
    reason: string,
  ) {
    super(`${channel} delivery via ${transport} failed: ${reason}`);
  }
}

/** Network calls to mail servers and SMS providers give up after this long, so a request never hangs. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** A short reason for the log; only the error's code and first line, never a payload. */
export function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]!.slice(0, 200) : String(error).slice(0, 200);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
