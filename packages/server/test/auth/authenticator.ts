import { expect } from 'vitest';
import { totpTokenAt } from '../../src/auth/totp';
import { apiClient, bodyOf, browserClient } from '../client';
import { tokenFor } from '../factories';
import type { TestApp } from '../harness';
import { openBrowser } from './browser';

/**
 * The authenticator set-up shared by the voter sign-in and pin-change suites: a member enrols an
 * authenticator through the API (send-qr, then verify-token with a code of the new secret), and
 * signs in with it (sign-pass, then verify-token-login) from a fresh browser.
 */

/** Enrols an authenticator for the member; answers its secret and the voter session used. */
export async function enrolAuthenticator(t: TestApp, member: { id: number; memberNo: string }) {
  const voterToken = await tokenFor(t.ctx, 'voter', member.id);
  const api = apiClient(t.app, voterToken);
  const qr = await api.auth.sendQr({ body: { pfNumber: member.memberNo } });
  expect(qr.status, JSON.stringify(qr.body)).toBe(200);
  const secret = bodyOf(qr, 200).secret;
  const verified = await api.auth.verifyToken({ body: { pfNumber: member.memberNo, token: totpTokenAt(secret, t.clock.now()) } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { secret, voterToken };
}

/** The authenticator sign-in (pin, then a fresh code 30 s later): the status of each step. */
export async function authenticatorSignIn(t: TestApp, member: { memberNo: string }, secret: string, pin: string) {
  const browser = browserClient(await openBrowser(t.app));
  const pinStep = await browser.auth.signPass({ body: { pfNumber: member.memberNo, pass: pin } });
  if (pinStep.status !== 200) return { pin: pinStep.status, token: undefined };
  t.clock.advance(30_000);
  const tokenStep = await browser.auth.verifyTokenLogin({
    body: { pfNumber: member.memberNo, token: totpTokenAt(secret, t.clock.now()) },
  });
  return { pin: pinStep.status, token: tokenStep.status };
}
