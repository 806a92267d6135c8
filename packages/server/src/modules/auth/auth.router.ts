import type { Request, Response } from 'express';
import type { Contract } from '@kura/contract';
import { assertCsrf, callerOf } from '../../auth/access';
import { clearPendingSignIn, readPendingSignIn, setPendingSignIn } from '../../auth/pending';
import { createDecoyThrottle, createIpLimiters } from '../../auth/rate-limits';
import { RESEND_INTERVAL_MS } from '../../auth/one-time-codes';
import type { Role } from '../../auth/sessions';
import type { AuthContext } from './context';
import type { RouterImplementation } from '../../http/routes';
import { changePin, checkPin, confirmEnrolment, signInWithAuthenticator, startEnrolment } from './authenticator.service';
import {
  createBackgroundWork,
  sendAdminCode,
  sendAgentCode,
  sendVoterCode,
  verifyCodeSignIn,
  type CodeDeps,
  type CodeSent,
} from './code-sign-in.service';
import { signInStaffWithGoogle, signInVoterWithGoogle } from './google-sign-in.service';
import { describeStaff, describeVoter, signOut } from './session.service';
import { finishSignUp, startSignUp } from './sign-up.service';

/** The address the activity log records (Express resolves it through TRUST_PROXY_HOPS). */
const ipOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

/** Thin handlers for the auth calls (docs/api.md "Endpoints", auth): read the request, call one service, answer. */
export function authRoutes(ctx: AuthContext): RouterImplementation<Contract['api']['auth']> {
  const deps: CodeDeps = {
    delivery: ctx.delivery,
    decoy: createDecoyThrottle(ctx, RESEND_INTERVAL_MS),
    inBackground: createBackgroundWork(ctx),
  };
  const limit = createIpLimiters(ctx);

  /** Step one of a code sign-in (admin, agent, voter): sends the code, keeps the pending state in its cookie. */
  const sendCodeStep =
    <B>(send: (body: B, ip: string) => Promise<CodeSent>) =>
    async ({ body, req, res }: { body: B; req: Request; res: Response }) => {
      const sent = await send(body, ipOf(req));
      setPendingSignIn(ctx, req, res, sent.pending);
      return { status: 200 as const, body: { message: sent.message } };
    };
  /** Step two: spends the code of the role's pending sign-in, starts the session, clears the cookie. */
  const verifyCodeStep =
    (role: Role) =>
    async ({ body, req, res }: { body: { token: string }; req: Request; res: Response }) => {
      const pending = readPendingSignIn(ctx, req, role, 'code');
      const session = await verifyCodeSignIn(ctx, { pending, code: body.token, ip: ipOf(req) });
      clearPendingSignIn(req, res, role);
      return { status: 200 as const, body: session };
    };

  return {
    loginAdmin: {
      middleware: [limit.sends, limit.tries],
      handler: sendCodeStep((body, ip) => sendAdminCode(ctx, deps, { email: body.email, password: body.password, ip })),
    },
    verifyAdmin: { middleware: [limit.tries], handler: verifyCodeStep('admin') },
    loginAdminGoogle: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await signInStaffWithGoogle(ctx, 'admin', { email: body.email, idToken: body.oauth_id_token, ip: ipOf(req) }),
      }),
    },
    loginAgent: {
      middleware: [limit.sends],
      handler: sendCodeStep((body, ip) => sendAgentCode(ctx, deps, { email: body.email, ip })),
    },
    verifyAgent: { middleware: [limit.tries], handler: verifyCodeStep('agent') },
    loginAgentGoogle: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await signInStaffWithGoogle(ctx, 'agent', { email: body.email, idToken: body.oauth_id_token, ip: ipOf(req) }),
      }),
    },
    verifyPhone: {
      middleware: [limit.sends],
      handler: sendCodeStep((body, ip) => sendVoterCode(ctx, deps, { identifier: body.unique_id, ip })),
    },
    verifySms: { middleware: [limit.tries], handler: verifyCodeStep('voter') },
    loginGoogle: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await signInVoterWithGoogle(ctx, { email: body.email, idToken: body.oauth_id_token, ip: ipOf(req) }),
      }),
    },
    signup: {
      middleware: [limit.sends, limit.tries],
      handler: async ({ body, req, res }) => {
        const started = await startSignUp(ctx, deps, {
          pfNumber: body.pfNumber,
          phone: body.phone,
          credential: body.credential,
          ip: ipOf(req),
        });
        setPendingSignIn(ctx, req, res, started.pending);
        return { status: 202, body: { message: started.message, pfNumber: started.pfNumber } };
      },
    },
    verifySignup: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        const pending = readPendingSignIn(ctx, req, 'voter', 'signup');
        const linked = await finishSignUp(ctx, { pending, code: body.token, ip: ipOf(req) });
        clearPendingSignIn(req, res, 'voter');
        return { status: 201, body: linked };
      },
    },
    sendQr: async ({ body, req }) => ({
      status: 200,
      body: await startEnrolment(ctx, callerOf(req), { pfNumber: body.pfNumber, ip: ipOf(req) }),
    }),
    verifyToken: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await confirmEnrolment(ctx, callerOf(req), { pfNumber: body.pfNumber, token: body.token, ip: ipOf(req) }),
      }),
    },
    signPass: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        // Open to anyone, but it writes the pending cookie: the double-submit check applies.
        assertCsrf(req);
        const passed = await checkPin(ctx, { pfNumber: body.pfNumber, pin: body.pass, ip: ipOf(req) });
        setPendingSignIn(ctx, req, res, passed.pending);
        return { status: 200, body: { message: passed.message } };
      },
    },
    changePin: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await changePin(ctx, callerOf(req), { currentPin: body.current_pin, newPin: body.new_pin, ip: ipOf(req) }),
      }),
    },
    verifyTokenLogin: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        const pending = readPendingSignIn(ctx, req, 'voter', 'pin');
        const session = await signInWithAuthenticator(ctx, { pending, pfNumber: body.pfNumber, token: body.token, ip: ipOf(req) });
        clearPendingSignIn(req, res, 'voter');
        return { status: 200, body: session };
      },
    },
    validateVoter: async ({ req }) => ({ status: 200, body: await describeVoter(ctx, callerOf(req)) }),
    validateStaff: async ({ req }) => ({ status: 200, body: await describeStaff(ctx, callerOf(req)) }),
    logout: async ({ req }) => {
      await signOut(ctx, callerOf(req), { ip: ipOf(req) });
      return { status: 204, body: undefined };
    },
  };
}
