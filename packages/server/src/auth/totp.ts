import speakeasy from 'speakeasy';
import { safeEqual } from '../lib/crypto';

/** RFC 6238 defaults every authenticator app uses: 30 s steps, 6 digits, SHA-1. */
export const TOTP_STEP_SECONDS = 30;
/** One step either side absorbs clock drift between the phone and the server. */
const WINDOW = 1;

export type TotpEnrolment = { secret: string; otpauthUrl: string };

/** A fresh 160-bit secret and its otpauth:// URI; the product's name is the account label and issuer. */
export function newTotpSecret(productName: string): TotpEnrolment {
  const secret = speakeasy.generateSecret({ length: 20 }).base32;
  const otpauthUrl = speakeasy.otpauthURL({
    secret,
    encoding: 'base32',
    label: productName,
    issuer: productName,
    period: TOTP_STEP_SECONDS,
  });
  return { secret, otpauthUrl };
}

/** The QR code of an otpauth:// URI as an SVG data URL (qrcode loaded here: only enrolment needs it). */
export async function qrCodeDataUrl(otpauthUrl: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export const totpStepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_STEP_SECONDS);

/**
 * The time step `token` belongs to, within ±1 step of `now`, and only if it is newer than
 * `lastStep`: speakeasy alone would accept the same token again for 90 s, so the caller stores
 * the step it accepts and a replayed token never matches.
 */
export function matchTotpStep(secret: string, token: string, now: Date, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const current = totpStepAt(now);
  let matched: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    // Compare every candidate so the timing does not say which step matched.
    const expected = speakeasy.hotp({ secret, encoding: 'base32', counter: step, digits: 6 });
    if (safeEqual(expected, token) && matched === null && (lastStep === null || step > lastStep)) matched = step;
  }
  return matched;
}

/** The token an authenticator app shows at `now` (tests and the CLI). */
export const totpTokenAt = (secret: string, now: Date): string =>
  speakeasy.hotp({ secret, encoding: 'base32', counter: totpStepAt(now), digits: 6 });
