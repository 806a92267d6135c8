/**
 * An outside API consumer, as a client author would write it: types generated from the published
 * /api/openapi.json by openapi-typescript (schema.gen.ts, written by the test), calls made with
 * openapi-fetch. It sends nothing the document does not declare: the Authorization of the bearer
 * schemes, the cookies of the cookie schemes (kept by a cookie jar, as a browser would), the
 * X-XSRF-TOKEN header parameter, and the request bodies with their media types.
 *
 * Compiled on its own with tsc by generated-client.test.ts; it is not part of the server's build.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.gen';

type Session = paths['/api/v1/verify/sms']['post']['responses'][200]['content']['application/json'];
export type ImportResult = paths['/api/v1/members/import']['post']['responses'][200]['content']['application/json'];
export type ErrorBody = components['schemas']['ErrorBody'];

/** What a browser does with the Set-Cookie headers the document declares. */
function cookieJar() {
  const cookies = new Map<string, string>();
  const middleware: Middleware = {
    onRequest({ request }) {
      if (cookies.size === 0) return undefined;
      request.headers.set('Cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      return request;
    },
    onResponse({ response }) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired = attributes.some(
          (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()),
        );
        if (expired || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
      return undefined;
    },
  };
  return { middleware, get: (name: string) => cookies.get(name) };
}

/** Multipart bodies: every field a form part, arrays repeated, files as files. */
function formData(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item instanceof Blob) form.append(name, item, name === 'file' ? 'members.csv' : 'upload');
      else if (item !== undefined) form.append(name, String(item));
    }
  }
  return form;
}

function expectOk<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** A browser-like client: one cookie jar, the CSRF cookie fetched first. */
async function anonymous(baseUrl: string) {
  const jar = cookieJar();
  const client = createClient<paths>({ baseUrl });
  client.use(jar.middleware);
  const csrf = await client.GET('/sanctum/csrf-cookie');
  if (csrf.response.status !== 204) throw new Error(`csrf-cookie: ${csrf.response.status}`);
  const xsrf = jar.get('XSRF-TOKEN');
  if (!xsrf) throw new Error('no XSRF-TOKEN cookie');
  return { client, xsrf };
}

function signedIn(baseUrl: string, session: Session) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${session.bearer_token}` } });
}

export type VoterJourney = {
  session: Session;
  missingCsrf: number;
  voted: paths['/api/v1/psk/vote']['post']['responses'][201]['content']['application/json'];
  receipts: paths['/api/v1/psk/vvpat']['get']['responses'][200]['content']['application/json'];
};

/** Voter: SMS sign-in, the ballot, a vote for the first candidate of every position, the receipts. */
export async function voterJourney(baseUrl: string, memberNo: string, smsCode: () => Promise<string>): Promise<VoterJourney> {
  const { client, xsrf } = await anonymous(baseUrl);
  expectOk(await client.POST('/api/v1/verify/phone', { body: { unique_id: memberNo, consent: true } }), 'verify/phone');
  const token = await smsCode();
  // Without the header parameter the document marks required, the step is refused.
  const missingCsrf = (await client.POST('/api/v1/verify/sms', { params: { header: { 'X-XSRF-TOKEN': '' } }, body: { token } })).response
    .status;
  const session = expectOk(
    await client.POST('/api/v1/verify/sms', { params: { header: { 'X-XSRF-TOKEN': xsrf } }, body: { token } }),
    'verify/sms',
  );

  const voter = signedIn(baseUrl, session);
  const ballot = expectOk(await voter.GET('/api/v1/psk/candidates/v2'), 'psk/candidates/v2');
  const candidates: Record<string, number> = {};
  for (const group of ballot.data) if (group.candidates[0]) candidates[String(group.position_id)] = group.candidates[0].id;
  const voted = expectOk(await voter.POST('/api/v1/psk/vote', { body: { candidates } }), 'psk/vote');
  const receipts = expectOk(await voter.GET('/api/v1/psk/vvpat'), 'psk/vvpat');
  return { session, missingCsrf, voted, receipts };
}

export type AdminJourney = {
  session: Session;
  imported: ImportResult;
  members: paths['/api/v1/members']['get']['responses'][200]['content']['application/json'];
};

/** Admin: password and emailed code, then a CSV member import and the member list. */
export async function adminJourney(
  baseUrl: string,
  email: string,
  password: string,
  mailedCode: () => Promise<string>,
  csv: string,
): Promise<AdminJourney> {
  const { client, xsrf } = await anonymous(baseUrl);
  expectOk(await client.POST('/api/v1/admin/login', { body: { email, password } }), 'admin/login');
  const token = await mailedCode();
  const session = expectOk(
    await client.POST('/api/v1/verify/admin', { params: { header: { 'X-XSRF-TOKEN': xsrf } }, body: { token } }),
    'verify/admin',
  );

  const admin = signedIn(baseUrl, session);
  const imported = expectOk(
    await admin.POST('/api/v1/members/import', {
      body: { file: new Blob([csv], { type: 'text/csv' }) },
      bodySerializer: formData,
    }),
    'members/import',
  );
  const members = expectOk(await admin.GET('/api/v1/members', { params: { query: { page: 1, per_page: 100 } } }), 'members');
  return { session, imported, members };
}
