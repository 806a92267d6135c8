import { z } from 'zod';
import { c, errors, meta, MessageBody, Session } from './common';
import {
  consentSchema,
  currentPinSchema,
  emailSchema,
  googleCredentialSchema,
  newPinSchema,
  passSchema,
  passwordSchema,
  pfNumberSchema,
  phoneSchema,
  signInIdentifierSchema,
  tokenSchema,
  voterIdSchema,
} from './validation';
import { said } from './messages';

// ---- Request bodies ----

export const AdminLoginBody = z.object({ email: emailSchema, password: passwordSchema });
export const AgentLoginBody = z.object({ email: emailSchema });
/** The code step of a two-step sign-in (SMS or emailed one-time code). */
export const VerifyCodeBody = z.object({ token: tokenSchema });
/** Google sign-in: the account's email and the button's ID token. */
export const GoogleLoginBody = z.object({ email: emailSchema, oauth_id_token: googleCredentialSchema });
/** unique_id: its format follows the organisation's member_no_pattern, so the server checks it (422 IDENTIFIER_FORMAT_MESSAGE). */
export const VerifyPhoneBody = z.object({ unique_id: signInIdentifierSchema, consent: consentSchema });

/**
 * Sign-up. name, email, email_verified, photo and google_id are accepted for compatibility
 * with the spec's payload but the server takes them from the verified Google `credential`.
 */
export const SignupBody = z.object({
  pfNumber: voterIdSchema,
  phone: phoneSchema,
  name: z
    .string()
    .max(150, said('field.maxLength', { n: 150 }))
    .optional(),
  email: z
    .string()
    .max(150, said('field.maxLength', { n: 150 }))
    .optional(),
  email_verified: z.boolean().optional(),
  photo: z
    .string()
    .max(2048, said('field.maxLength', { n: 2048 }))
    .optional(),
  google_id: z
    .string()
    .max(255, said('field.maxLength', { n: 255 }))
    .optional(),
  credential: googleCredentialSchema,
});

export const SendQrBody = z.object({ pfNumber: pfNumberSchema });
export const VerifyTokenBody = z.object({ token: tokenSchema, pfNumber: pfNumberSchema });
export const SignPassBody = z.object({ pass: passSchema, pfNumber: pfNumberSchema });
/** A signed-in member replaces their authenticator pin. */
export const ChangePinBody = z.object({ current_pin: currentPinSchema, new_pin: newPinSchema });

// ---- Responses ----

/** The answer of a finished sign-up (signup/verify, 201), and of its first step (signup, 202). */
export const SignupResponse = z.object({ message: z.string(), pfNumber: z.string() });
export const QrResponse = z.object({
  /** `data:image/svg+xml;base64,…` QR code of the otpauth:// URI */
  url: z.string(),
  /** base32 setup key for typing into the authenticator app */
  secret: z.string(),
});
export const ValidateVoterResponse = z.object({
  user_type: z.literal('voter'),
  /** language: the member's own (en, sw), null for the organisation's default */
  data: z.object({ name: z.string(), language: z.string().nullable().optional() }),
});
export const ValidateStaffResponse = z.object({
  user_type: z.enum(['admin', 'agent']),
  data: z.object({ name: z.string() }),
});

// ---- Routers ----

/** Sits at the site root, outside /api/v1. */
export const csrfRouter = c.router({
  getCsrfCookie: {
    method: 'GET',
    path: '/sanctum/csrf-cookie',
    summary: 'Set the XSRF-TOKEN cookie',
    description:
      'Answers 204 and sets a readable XSRF-TOKEN cookie. Cookie-authorised calls (the verify steps) must echo it in X-XSRF-TOKEN, otherwise 419.',
    responses: { 204: c.noBody(), ...errors() },
    metadata: meta('anyone'),
  },
});

export const authRouter = c.router({
  loginAdmin: {
    method: 'POST',
    path: '/admin/login',
    summary: 'Admin sign-in, step 1: email and password',
    description:
      'On valid credentials emails a one-time code and sets the pending-admin cookie. Wrong credentials answer 401 "Invalid credentials".',
    body: AdminLoginBody,
    responses: { 200: MessageBody, ...errors(401, 502) },
    metadata: meta('anyone', { startsSignIn: 'admin' }),
  },
  verifyAdmin: {
    method: 'POST',
    path: '/verify/admin',
    summary: 'Admin sign-in, step 2: the emailed code',
    description: 'Reads the pending-admin cookie (send X-XSRF-TOKEN). Answers a session with the bearer token.',
    body: VerifyCodeBody,
    responses: { 200: Session, ...errors(401, 403, 419) },
    metadata: meta('pending-admin'),
  },
  loginAdminGoogle: {
    method: 'POST',
    path: '/admin/google/login',
    summary: 'Admin sign-in with Google',
    description: 'Verifies the Google ID token; the email must belong to an admin. 503 when GOOGLE_CLIENT_ID is not configured.',
    body: GoogleLoginBody,
    responses: { 200: Session, ...errors(401, 403, 503) },
    metadata: meta('anyone'),
  },
  loginAgent: {
    method: 'POST',
    path: '/agent/login',
    summary: 'Agent sign-in, step 1: email',
    description:
      "Emails a one-time code when the email is an agent's; the answer is the same either way. The mail goes out after the answer, so neither the answer's time nor a failing mail server tells an agent from any other email.",
    body: AgentLoginBody,
    responses: { 200: MessageBody, ...errors() },
    metadata: meta('anyone', { startsSignIn: 'agent' }),
  },
  verifyAgent: {
    method: 'POST',
    path: '/verify/agent',
    summary: 'Agent sign-in, step 2: the emailed code',
    description: 'Reads the pending-agent cookie (send X-XSRF-TOKEN). Answers a session with the bearer token.',
    body: VerifyCodeBody,
    responses: { 200: Session, ...errors(401, 403, 419) },
    metadata: meta('pending-agent'),
  },
  loginAgentGoogle: {
    method: 'POST',
    path: '/agent/google/login',
    summary: 'Agent sign-in with Google',
    description: 'Verifies the Google ID token; the email must belong to an agent. 503 when GOOGLE_CLIENT_ID is not configured.',
    body: GoogleLoginBody,
    responses: { 200: Session, ...errors(401, 403, 503) },
    metadata: meta('anyone'),
  },
  verifyPhone: {
    method: 'POST',
    path: '/verify/phone',
    summary: 'Voter sign-in, step 1: member number, registered phone or email',
    description:
      'Texts a 6-digit code to the member\'s phone and sets the pending-voter cookie. The phone may be written in any register spelling (compared in E.164); a phone several members share counts as unknown. Unknown member: 404 {message: "No account found, try signing up", issue: "No such user exists"}.',
    body: VerifyPhoneBody,
    responses: { 200: MessageBody, ...errors(404, 502) },
    metadata: meta('anyone', { startsSignIn: 'voter' }),
  },
  verifySms: {
    method: 'POST',
    path: '/verify/sms',
    summary: 'Voter sign-in, step 2: the SMS code',
    description: 'Reads the pending-voter cookie (send X-XSRF-TOKEN). Answers a session with the bearer token.',
    body: VerifyCodeBody,
    responses: { 200: Session, ...errors(401, 403, 419) },
    metadata: meta('pending-voter'),
  },
  loginGoogle: {
    method: 'POST',
    path: '/google/login',
    summary: 'Voter sign-in with Google',
    description: 'Verifies the Google ID token and signs in the member with that email. 503 when GOOGLE_CLIENT_ID is not configured.',
    body: GoogleLoginBody,
    responses: { 200: Session, ...errors(401, 403, 404, 503) },
    metadata: meta('anyone'),
  },
  signup: {
    method: 'POST',
    path: '/signup',
    summary: 'Voter sign-up, step 1: voter ID, phone and Google',
    description:
      "Checks the Google ID token (each is accepted once; a reused one answers 401) and that the phone is the member's registered one (else 404; wrong phones count against the member's sign-up, 429 when limited), then texts a 6-digit code to that phone and sets the pending-voter cookie. Nothing is linked until signup/verify. 409 when the account already exists.",
    body: SignupBody,
    responses: { 202: SignupResponse, ...errors(401, 403, 404, 409, 502, 503) },
    metadata: meta('anyone', { startsSignIn: 'voter' }),
  },
  verifySignup: {
    method: 'POST',
    path: '/signup/verify',
    summary: 'Voter sign-up, step 2: the SMS code',
    description:
      "Reads the pending-voter cookie of a sign-up (send X-XSRF-TOKEN). The code texted to the member's registered phone links the Google account (201); a wrong code answers 401 and counts against the code (5 tries) and the member's sign-up. 409 when the account already exists: judged only after a right code (a wrong one answers 401 either way), which the 409 leaves unspent.",
    body: VerifyCodeBody,
    responses: { 201: SignupResponse, ...errors(401, 403, 409, 419) },
    metadata: meta('pending-voter'),
  },
  sendQr: {
    method: 'POST',
    path: '/send-qr',
    summary: 'Start authenticator enrolment: QR code and setup key',
    description: "Needs a signed-in voter; pfNumber must be the caller's own member number.",
    body: SendQrBody,
    responses: { 200: QrResponse, ...errors(401, 403) },
    metadata: meta('voter'),
  },
  verifyToken: {
    method: 'POST',
    path: '/verify-token',
    summary: 'Confirm authenticator enrolment with a first token',
    body: VerifyTokenBody,
    responses: { 200: MessageBody, ...errors(401, 403) },
    metadata: meta('voter'),
  },
  signPass: {
    method: 'POST',
    path: '/sign-pass',
    summary: 'Authenticator sign-in, step 1: the pin',
    description:
      "Checks the member's pin and marks the pin step passed in the pending-voter cookie (send X-XSRF-TOKEN). A member without a confirmed authenticator answers 403 whatever the pin: the pin is not checked, so the answer says nothing about it.",
    body: SignPassBody,
    responses: { 200: MessageBody, ...errors(401, 403, 404, 419) },
    metadata: meta('anyone', { startsSignIn: 'voter', csrf: true }),
  },
  changePin: {
    method: 'PUT',
    path: '/psk/pin',
    summary: "Set the caller's own authenticator pin",
    description:
      'Needs a signed-in voter. current_pin is the default pin until the member sets their own; afterwards only their own pin opens the authenticator sign-in. new_pin: 4 to 8 digits, not the default pin, not one digit repeated or a run like 1234 (422 with errors.new_pin). A wrong current_pin answers 422 (errors.current_pin) and counts against the member\'s pin like a wrong pin at sign-pass (429 when limited). Answers {message: "Pin changed"}.',
    body: ChangePinBody,
    responses: { 200: MessageBody, ...errors(401, 403) },
    metadata: meta('voter'),
  },
  verifyTokenLogin: {
    method: 'POST',
    path: '/verify-token-login',
    summary: 'Authenticator sign-in, step 2: the authenticator token',
    description: 'Needs the pending-voter cookie with the pin step passed (send X-XSRF-TOKEN). Answers a session.',
    body: VerifyTokenBody,
    responses: { 200: Session, ...errors(401, 403, 419) },
    metadata: meta('pending-voter'),
  },
  validateVoter: {
    method: 'GET',
    path: '/validate',
    summary: 'Check a voter session',
    responses: { 200: ValidateVoterResponse, ...errors(401, 403) },
    metadata: meta('voter'),
  },
  validateStaff: {
    method: 'GET',
    path: '/validate/admin',
    summary: 'Check an admin or agent session',
    responses: { 200: ValidateStaffResponse, ...errors(401, 403) },
    metadata: meta('agent'),
  },
  logout: {
    method: 'POST',
    path: '/logout',
    summary: 'Sign out: the bearer token is dead afterwards',
    body: c.noBody(),
    responses: { 204: c.noBody(), ...errors(401, 403) },
    metadata: meta('signed-in'),
  },
});
