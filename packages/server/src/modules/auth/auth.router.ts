import type { Request } from 'express';
import type { Contract } from '@kura/contract';
import { assertCsrf, callerOf } from '../../auth/access';
import { clearPendingSignIn, readPendingSignIn, setPendingSignIn } from '../../auth/pending';
import { createDecoyThrottle, createIpLimiters } from '../../auth/rate-limits';
import { RESEND_INTERVAL_MS } from '../../auth/one-time-codes';
import type { AuthContext } from './context';
import type { RouterImplementation } from '../../http/routes';
import { changePin, checkPin, confirmEnrolment, signInWithAuthenticator, startEnrolment } from './authenticator.service';
import { createBackgroundWork, sendAdminCode, sendAgentCode, sendVoterCode, verifyCodeSignIn, type CodeDeps } from './code-sign-in.service';
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

  return {
    loginAdmin: {
      middleware: [limit.sends, limit.tries],
      handler: async ({ body, req, res }) => {
        const sent = await sendAdminCode(ctx, deps, { email: body.email, password: body.password, ip: ipOf(req) });
        setPendingSignIn(ctx, req, res, sent.pending);
        return { status: 200, body: { message: sent.message } };
      },
    },
    verifyAdmin: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        const pending = readPendingSignIn(ctx, req, 'admin', 'code');
        const session = await verifyCodeSignIn(ctx, { pending, code: body.token, ip: ipOf(req) });
        clearPendingSignIn(req, res, 'admin');
        return { status: 200, body: session };
      },
    },
    loginAdminGoogle: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await signInStaffWithGoogle(ctx, 'admin', { email: body.email, idToken: body.oauth_id_token, ip: ipOf(req) }),
      }),
    },
    loginAgent: {
      middleware: [limit.sends],
      handler: async ({ body, req, res }) => {
        const sent = await sendAgentCode(ctx, deps, { email: body.email, ip: ipOf(req) });
        setPendingSignIn(ctx, req, res, sent.pending);
        return { status: 200, body: { message: sent.message } };
      },
    },
    verifyAgent: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        const pending = readPendingSignIn(ctx, req, 'agent', 'code');
        const session = await verifyCodeSignIn(ctx, { pending, code: body.token, ip: ipOf(req) });
        clearPendingSignIn(req, res, 'agent');
        return { status: 200, body: session };
      },
    },
    loginAgentGoogle: {
      middleware: [limit.tries],
      handler: async ({ body, req }) => ({
        status: 200,
        body: await signInStaffWithGoogle(ctx, 'agent', { email: body.email, idToken: body.oauth_id_token, ip: ipOf(req) }),
      }),
    },
    verifyPhone: {
      middleware: [limit.sends],
      handler: async ({ body, req, res }) => {
        const sent = await sendVoterCode(ctx, deps, { identifier: body.unique_id, ip: ipOf(req) });
        setPendingSignIn(ctx, req, res, sent.pending);
        return { status: 200, body: { message: sent.message } };
      },
    },
    verifySms: {
      middleware: [limit.tries],
      handler: async ({ body, req, res }) => {
        const pending = readPendingSignIn(ctx, req, 'voter', 'code');
        const session = await verifyCodeSignIn(ctx, { pending, code: body.token, ip: ipOf(req) });
        clearPendingSignIn(req, res, 'voter');
        return { status: 200, body: session };
      },
    },
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
