import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, inEnglish, MAX_ID, MAX_POSITIONS, type Access } from './index';

type Row = [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, access: Access];

/** The calls of docs/api.md "Endpoints": the original 44, the operator ones, and GET help (admin list of reports). */
const EXPECTED: Row[] = [
  ['GET', '/sanctum/csrf-cookie', 'anyone'], // 1
  ['GET', '/api/v1/psk/election/status', 'anyone'], // 2
  ['GET', '/api/v1/psk/positions', 'anyone'], // 3
  ['GET', '/api/v1/psk/results', 'anyone'], // 4
  ['GET', '/api/v1/psk/dashboard', 'voter'], // 5
  ['GET', '/api/v1/statistics', 'agent'], // 6
  ['POST', '/api/v1/toggle', 'admin'], // 7
  ['POST', '/api/v1/admin/login', 'anyone'], // 8
  ['POST', '/api/v1/verify/admin', 'pending-admin'], // 9
  ['POST', '/api/v1/admin/google/login', 'anyone'], // 10
  ['POST', '/api/v1/agent/login', 'anyone'], // 11
  ['POST', '/api/v1/verify/agent', 'pending-agent'], // 12
  ['POST', '/api/v1/agent/google/login', 'anyone'], // 13
  ['POST', '/api/v1/help', 'signed-in'], // 14
  ['GET', '/api/v1/members', 'admin'], // 15
  ['GET', '/api/v1/search/member', 'admin'], // 16
  ['GET', '/api/v1/branches', 'admin'], // 17
  ['GET', '/api/v1/psk/candidate/positions', 'admin'], // 18
  ['POST', '/api/v1/assign/psk/position', 'admin'], // 19
  ['POST', '/api/v1/edit/psk/member/:id', 'admin'], // 20
  ['GET', '/api/v1/psk/candidates', 'admin'], // 21
  ['POST', '/api/v1/edit/candidate/:id', 'admin'], // 22
  ['POST', '/api/v1/details', 'anyone'], // 23
  ['GET', '/api/v1/logs', 'admin'], // 24
  ['GET', '/api/v1/search/logs', 'admin'], // 25
  ['GET', '/api/v1/psk/admin/vvpat', 'admin'], // 26
  ['GET', '/api/v1/search/vvpat', 'admin'], // 27
  ['GET', '/api/v1/psk/vvpat', 'voter'], // 28
  ['GET', '/api/v1/agent/results', 'agent'], // 29
  ['GET', '/api/v1/agent/statistics', 'agent'], // 30
  ['GET', '/api/v1/psk/candidates/v2', 'voter'], // 31
  ['POST', '/api/v1/psk/vote', 'voter'], // 32
  ['GET', '/api/v1/items', 'voter'], // 33
  ['POST', '/api/v1/verify/sms', 'pending-voter'], // 34
  ['POST', '/api/v1/verify/phone', 'anyone'], // 35
  ['POST', '/api/v1/google/login', 'anyone'], // 36
  ['POST', '/api/v1/signup', 'anyone'], // 37
  ['POST', '/api/v1/send-qr', 'voter'], // 38
  ['POST', '/api/v1/verify-token', 'voter'], // 39
  ['POST', '/api/v1/sign-pass', 'anyone'], // 40
  ['POST', '/api/v1/verify-token-login', 'pending-voter'], // 41
  ['GET', '/api/v1/validate', 'voter'], // 42
  ['GET', '/api/v1/validate/admin', 'agent'], // 43
  ['POST', '/api/v1/logout', 'signed-in'], // 44
  // operators and API consumers
  ['POST', '/api/v1/members/import', 'admin'],
  ['GET', '/api/v1/psk/results/export', 'admin'],
  ['GET', '/api/v1/psk/commitments', 'anyone'],
  ['GET', '/api/v1/psk/receipt/:vvpat', 'anyone'],
  // running any organisation's election
  ['POST', '/api/v1/reminders', 'admin'],
  ['GET', '/api/v1/reminders/:id', 'admin'],
  // beyond the original 44
  ['GET', '/api/v1/help', 'admin'],
  ['GET', '/api/v1/reminders', 'admin'],
  // sign-up's code step: linking a Google account needs the code texted to the member's phone
  ['POST', '/api/v1/signup/verify', 'pending-voter'],
  // a member replaces the default authenticator pin with their own
  ['PUT', '/api/v1/psk/pin', 'voter'],
  // docs/api.md "Languages": a member sets their own language
  ['PUT', '/api/v1/me/language', 'voter'],
];

/** API.md "Setting up and running any organisation's election". */
const SETUP: Row[] = [
  ['GET', '/api/v1/election', 'anyone'],
  ['PUT', '/api/v1/election', 'admin'],
  ['POST', '/api/v1/branches', 'admin'],
  ['PATCH', '/api/v1/branches/:id', 'admin'],
  ['DELETE', '/api/v1/branches/:id', 'admin'],
  ['POST', '/api/v1/positions', 'admin'],
  ['PATCH', '/api/v1/positions/:id', 'admin'],
  ['DELETE', '/api/v1/positions/:id', 'admin'],
  // the set-up page's reorder: the whole order in one call
  ['PUT', '/api/v1/positions/order', 'admin'],
  ['POST', '/api/v1/election/close', 'admin'],
  ['GET', '/api/v1/psk/results/final', 'anyone'],
  // the set-up checklist's agents item
  ['GET', '/api/v1/agents', 'admin'],
];

/** API.md "Many elections, motions and ranked counts". */
const MANY: Row[] = [
  // The register run by the secretary (docs/api.md "Running it on your own").
  ['POST', '/api/v1/members', 'admin'],
  ['DELETE', '/api/v1/members/:id', 'admin'],
  ['GET', '/api/v1/members/import/template', 'admin'],
  ['GET', '/api/v1/organisation', 'anyone'],
  ['PUT', '/api/v1/organisation', 'admin'],
  ['GET', '/api/v1/elections', 'anyone'],
  ['POST', '/api/v1/elections', 'admin'],
  ['GET', '/api/v1/elections/:id', 'anyone'],
  ['PATCH', '/api/v1/elections/:id', 'admin'],
  ['DELETE', '/api/v1/elections/:id', 'admin'],
  ['POST', '/api/v1/elections/:id/copy', 'admin'],
  ['POST', '/api/v1/elections/:id/archive', 'admin'],
];

/** Staff from the back office (docs/api.md "Running it on your own"). */
const STAFF: Row[] = [
  ['GET', '/api/v1/staff', 'admin'],
  ['POST', '/api/v1/staff', 'admin'],
  ['DELETE', '/api/v1/staff/:id', 'admin'],
  ['PATCH', '/api/v1/staff/me', 'agent'],
  ['GET', '/api/v1/staff/status', 'anyone'],
  ['POST', '/api/v1/staff/password', 'anyone'],
];

/** docs/api.md "The declaration, signed, and the evidence pack". */
const SIGNED: [string, string, Access][] = [
  ['PUT', '/api/v1/staff/signing-key', 'agent'],
  ['GET', '/api/v1/elections/:id/evidence/digest', 'anyone'],
  ['POST', '/api/v1/elections/:id/signatures', 'agent'],
  ['GET', '/api/v1/elections/:id/signatures', 'anyone'],
  ['GET', '/api/v1/psk/results/declaration.pdf', 'anyone'],
  ['GET', '/api/v1/elections/:id/evidence', 'agent'],
];

/** docs/api.md "Voting by USSD": the admin's USSD page (the gateway's callback is outside the contract). */
const USSD: Row[] = [['GET', '/api/v1/ussd/status', 'admin']];
/** docs/api.md "The register: member attributes, eligibility rules and inspection". */
const REGISTER: [string, string, Access][] = [
  ['GET', '/api/v1/organisation/attributes', 'admin'],
  ['PUT', '/api/v1/organisation/attributes', 'admin'],
  ['GET', '/api/v1/elections/:id/roll', 'anyone'],
  ['GET', '/api/v1/elections/:id/roll/members', 'agent'],
  ['GET', '/api/v1/psk/register', 'voter'],
  ['POST', '/api/v1/psk/register/claims', 'voter'],
  ['GET', '/api/v1/psk/register/claims', 'voter'],
  ['GET', '/api/v1/register/claims', 'admin'],
  ['POST', '/api/v1/register/claims/:id/ruling', 'admin'],
];
/** Nominations (docs/api.md "Nominations"): supporters, nominee and the returning officer. */
const NOMINATIONS: [string, string, Access][] = [
  ['POST', '/api/v1/psk/nominations', 'voter'],
  ['GET', '/api/v1/psk/nominations', 'voter'],
  ['POST', '/api/v1/psk/nominations/:id/support', 'voter'],
  ['POST', '/api/v1/psk/nominations/:id/accept', 'voter'],
  ['POST', '/api/v1/psk/nominations/:id/withdraw', 'voter'],
  ['POST', '/api/v1/psk/nominations/:id/appeal', 'voter'],
  ['GET', '/api/v1/nominations', 'admin'],
  ['POST', '/api/v1/nominations/:id/decision', 'admin'],
  ['POST', '/api/v1/nominations/:id/appeal/decision', 'admin'],
  ['GET', '/api/v1/elections/:id/nominations', 'anyone'],
];

function walk(router: AppRouter, prefix: string[] = []): { key: string; route: AppRoute }[] {
  return Object.entries(router).flatMap(([k, v]) =>
    isAppRoute(v) ? [{ key: [...prefix, k].join('.'), route: v }] : walk(v as AppRouter, [...prefix, k]),
  );
}

const routes = walk(contract);
const byCall = new Map(routes.map((r) => [`${r.route.method} ${r.route.path}`, r]));
const accessOf = (r: AppRoute) => (r.metadata as { access?: Access } | undefined)?.access;
const GUARDED: Access[] = ['signed-in', 'voter', 'agent', 'admin', 'pending-voter', 'pending-admin', 'pending-agent'];

describe('contract', () => {
  it('has 44 spec rows + 4 operator rows + the election-running rows + GET help, the reminders list, the sign-up code step, the pin change and the own language', () => {
    expect(EXPECTED).toHaveLength(55);
  });

  it.each([...EXPECTED, ...SETUP, ...MANY, ...STAFF, ...SIGNED, ...USSD, ...REGISTER, ...NOMINATIONS])(
    '%s %s exists with access %s',
    (method, path, access) => {
      const r = byCall.get(`${method} ${path}`);
      expect(r, `${method} ${path}`).toBeDefined();
      expect(accessOf(r!.route)).toBe(access);
    },
  );

  it('has no route outside the tables and no duplicate method + path', () => {
    const calls = routes.map((r) => `${r.route.method} ${r.route.path}`);
    expect(new Set(calls).size).toBe(calls.length);
    const known = new Set(
      [...EXPECTED, ...SETUP, ...MANY, ...STAFF, ...SIGNED, ...USSD, ...REGISTER, ...NOMINATIONS].map(([m, p]) => `${m} ${p}`),
    );
    // Other set-up calls (election close, final results and a ranked position's ballots, reminders) are added beside these.
    expect(calls.filter((c) => known.has(c)).sort()).toEqual([...known].sort());
    for (const call of calls.filter((c) => !known.has(c)))
      expect(call, call).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/api\/v1\/(election|psk\/results\/(final|ballots)|reminders)/);
  });

  it('puts only the CSRF route outside /api/v1', () => {
    for (const { route } of routes) {
      if (route.path === '/sanctum/csrf-cookie') continue;
      expect(route.path.startsWith('/api/v1/')).toBe(true);
    }
  });

  it.each(routes.map((r) => [r.key, r.route] as const))('%s has a summary, access and error responses', (_key, route) => {
    expect(route.summary?.trim()).toBeTruthy();
    expect(accessOf(route)).toBeTruthy();
    const statuses = Object.keys(route.responses).map(Number);
    for (const s of [400, 422, 500]) expect(statuses).toContain(s);
    if (GUARDED.includes(accessOf(route)!)) for (const s of [401, 403]) expect(statuses).toContain(s);
    expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true);
  });

  it('documents the route-specific errors', () => {
    const statuses = (key: string) => Object.keys(routes.find((r) => r.key === key)!.route.responses).map(Number);
    expect(statuses('api.ballots.castVote')).toEqual(expect.arrayContaining([201, 403, 409]));
    expect(statuses('api.auth.signup')).toEqual(expect.arrayContaining([202, 404, 409, 429, 503]));
    expect(statuses('api.auth.verifySignup')).toEqual(expect.arrayContaining([201, 401, 409, 429]));
    expect(statuses('api.auth.loginAdmin')).toEqual(expect.arrayContaining([401, 502]));
    expect(statuses('api.auth.verifyPhone')).toEqual(expect.arrayContaining([404, 502]));
    for (const k of ['verifySms', 'verifyAdmin', 'verifyAgent', 'verifyTokenLogin', 'verifySignup', 'signPass']) {
      expect(statuses(`api.auth.${k}`)).toContain(419);
    }
    for (const k of ['api.help.reportIssue', 'api.candidates.updateCandidate', 'api.members.importMembers']) {
      expect(statuses(k)).toEqual(expect.arrayContaining([413, 415]));
    }
    expect(statuses('api.help.reportIssue')).toContain(201);
    expect(statuses('api.auth.logout')).toContain(204);
  });
});

describe('request schemas', () => {
  const api = contract.api;

  it('vote: map of position id to candidate id, 1..100 entries', () => {
    const body = api.ballots.castVote.body;
    expect(body.safeParse({ candidates: { '1': 5, '2': '7' } })).toMatchObject({ success: true, data: { candidates: { '1': 5, '2': 7 } } });
    expect(body.safeParse({ candidates: {} }).success).toBe(false);
    expect(body.safeParse({}).success).toBe(false);
    expect(body.safeParse({ candidates: { abc: 1 } }).success).toBe(false);
    expect(body.safeParse({ candidates: { '1': 'x' } }).success).toBe(false);
    expect(body.safeParse({ candidates: { '1': -1 } }).success).toBe(false);
    expect(body.safeParse({ candidates: { '1': true } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i + 1), 1]));
    expect(body.safeParse({ candidates: many }).success).toBe(false);
    // unknown fields are ignored
    expect(body.safeParse({ candidates: { '1': 1 }, extra: 1 }).success).toBe(true);
    // several seats: a list of candidate ids (the server checks seats and duplicates)
    expect(body.safeParse({ candidates: { '1': [5, '7'], '2': 3 } })).toMatchObject({
      success: true,
      data: { candidates: { '1': [5, 7], '2': 3 } },
    });
    expect(body.safeParse({ candidates: { '1': [] } }).success).toBe(false);
    expect(body.safeParse({ candidates: { '1': [5, 'x'] } }).success).toBe(false);
    expect(body.safeParse({ candidates: { '1': [2 ** 31] } }).success).toBe(false);
  });

  it('toggle takes a boolean', () => {
    const body = api.elections.toggleElection.body;
    expect(body.safeParse({ status: true }).success).toBe(true);
    expect(body.safeParse({ status: 'yes' }).success).toBe(false);
  });

  it('verify/phone needs an identifier and consent', () => {
    const body = api.auth.verifyPhone.body;
    expect(body.safeParse({ unique_id: '1234', consent: true }).success).toBe(true);
    expect(body.safeParse({ unique_id: '1234', consent: false }).success).toBe(false);
    expect(body.safeParse({ unique_id: 'ab', consent: true }).success).toBe(false);
  });

  it('edit member takes a branch id or name', () => {
    const body = api.members.updateMember.body;
    const base = { name: 'Jane', phone: '0712345678', email: 'j@example.org', member_no: '1234' };
    expect(body.safeParse({ ...base, county: 3 }).success).toBe(true);
    expect(body.safeParse({ ...base, county: 'Nairobi' }).success).toBe(true);
    expect(body.safeParse({ ...base, county: '' }).success).toBe(false);
  });

  it('multipart position_ids accepts one string or a list', () => {
    const body = api.candidates.updateCandidate.body;
    const base = { name: 'Jane', phone: '0712345678', email: 'j@example.org', county: 'Nairobi' };
    expect(body.parse({ ...base, position_ids: '2' }).position_ids).toEqual([2]);
    expect(body.parse({ ...base, position_ids: ['2', '3'] }).position_ids).toEqual([2, 3]);
    expect(body.parse(base).position_ids).toEqual([]);
    expect(body.safeParse({ ...base, position_ids: ['x'] }).success).toBe(false);
  });

  it('path ids and page query coerce strings', () => {
    expect(api.members.updateMember.pathParams.parse({ id: '7' })).toEqual({ id: 7 });
    expect(api.members.updateMember.pathParams.safeParse({ id: 'abc' }).success).toBe(false);
    expect(api.members.listMembers.query.parse({ page: '2' })).toEqual({ page: 2 });
    expect(api.vvpat.searchVvpat.query.parse({ psk_position_id: '' })).toEqual({});
  });
});

describe('?election_id on the voting and results family', () => {
  const api = contract.api;
  const family = {
    getBallot: api.ballots.getBallot,
    castVote: api.ballots.castVote,
    listCandidates: api.candidates.listCandidates,
    updateCandidate: api.candidates.updateCandidate,
    getElection: api.elections.getElection,
    updateElection: api.elections.updateElection,
    getElectionStatus: api.elections.getElectionStatus,
    toggleElection: api.elections.toggleElection,
    getResults: api.elections.getResults,
    getDashboard: api.elections.getDashboard,
    getStatistics: api.elections.getStatistics,
    getAgentResults: api.elections.getAgentResults,
    getAgentStatistics: api.elections.getAgentStatistics,
    listCommitments: api.elections.listCommitments,
    exportResults: api.elections.exportResults,
    closeElection: api.lifecycle.closeElection,
    getFinalResults: api.lifecycle.getFinalResults,
    getRankedBallots: api.lifecycle.getRankedBallots,
    assignPositions: api.members.assignPositions,
    listPositions: api.members.listPositions,
    listCandidatePositions: api.members.listCandidatePositions,
    createReminder: api.reminders.createReminder,
    listReminders: api.reminders.listReminders,
    createPosition: api.setup.createPosition,
    reorderPositions: api.setup.reorderPositions,
    listVvpat: api.vvpat.listVvpat,
    searchVvpat: api.vvpat.searchVvpat,
  };

  it('every call of the family declares it, optional, beside its own query', () => {
    for (const [name, route] of Object.entries(family)) {
      const query = route.query as z.AnyZodObject | undefined;
      expect(query?.shape.election_id, name).toBeDefined();
      const own = name === 'getRankedBallots' ? { position_id: '3' } : {};
      expect(query!.safeParse(own).success, name).toBe(true);
      expect(query!.safeParse({ ...own, election_id: 7 }).success, name).toBe(true);
    }
    expect(api.elections.exportResults.query.parse({ election_id: 7 })).toEqual({ format: 'csv', election_id: 7 });
    expect(api.lifecycle.getRankedBallots.query.parse({ position_id: '3', election_id: '7' })).toEqual({
      position_id: 3,
      election_id: '7',
    });
  });

  it('every route that takes it documents the 404 "No such election"', () => {
    const walk = (node: unknown, path: string): [string, AppRoute][] =>
      isAppRoute(node as AppRoute | AppRouter)
        ? [[path, node as AppRoute]]
        : Object.entries(node as object).flatMap(([k, v]) => walk(v, `${path}.${k}`));
    const taking = walk(contract, 'contract').filter(([, route]) => (route.query as z.AnyZodObject | undefined)?.shape?.election_id);
    expect(taking.length).toBeGreaterThanOrEqual(Object.keys(family).length);
    for (const [name, route] of taking) expect(Object.keys(route.responses), name).toContain('404');
  });

  it('a number is a bounded id; text is left to the server (404 "No such election" for any that names none)', () => {
    const query = api.elections.getResults.query;
    expect(query.safeParse({ election_id: 0 }).success).toBe(false);
    expect(query.safeParse({ election_id: MAX_ID + 1 }).success).toBe(false);
    for (const text of ['7', 'abc', '0', '-1', '']) expect(query.safeParse({ election_id: text }).success, text).toBe(true);
  });

  it('the organisation-wide calls do not take it', () => {
    expect('query' in api.vvpat.getMyVvpat).toBe(false);
    expect('query' in api.organisation.listElections).toBe(false);
  });
});

describe('set-up schemas', () => {
  const api = contract.api;

  it('election update: any subset, closes after opens, valid website and email', () => {
    const body = api.elections.updateElection.body;
    expect(body.safeParse({}).success).toBe(true);
    expect(body.safeParse({ title: 'AGM 2026', website: null, support_email: 'Help@Coop.example' })).toMatchObject({
      success: true,
      data: { support_email: 'help@coop.example' },
    });
    expect(body.safeParse({ website: 'javascript:alert(1)' }).success).toBe(false);
    expect(body.safeParse({ support_email: 'nope' }).success).toBe(false);
    expect(body.safeParse({ results_visibility: 'secret' }).success).toBe(false);
    expect(body.safeParse({ opens_at: '2026-05-01T08:00:00+03:00', closes_at: '2026-05-01T17:00:00+03:00' }).success).toBe(true);
    const backwards = body.safeParse({ opens_at: '2026-05-01T08:00:00Z', closes_at: '2026-05-01T07:00:00Z' });
    expect(backwards.success).toBe(false);
    expect(backwards.error?.issues[0]?.path).toEqual(['closes_at']);
    expect(body.safeParse({ opens_at: '1 May' }).success).toBe(false);
  });

  it('positions: seats 1..50, a branch or every branch', () => {
    const body = api.setup.createPosition.body;
    expect(body.safeParse({ name: 'Board', seats: 3 }).success).toBe(true);
    expect(body.safeParse({ name: 'Board', seats: 0 }).success).toBe(false);
    expect(body.safeParse({ name: 'Board', seats: 1.5 }).success).toBe(false);
    expect(body.safeParse({ name: '' }).success).toBe(false);
    expect(body.safeParse({ name: 'Rep', branch_id: 3, every_branch: true }).success).toBe(false);
    expect(api.setup.createBranch.body.safeParse({ name: 'National' }).success).toBe(false);
  });

  it('positions order: a list of ids, each once, at most MAX_POSITIONS', () => {
    const body = api.setup.reorderPositions.body;
    expect(body.safeParse({ position_ids: [3, 1, 2] }).success).toBe(true);
    expect(body.safeParse({ position_ids: [] }).success).toBe(true);
    const repeated = body.safeParse({ position_ids: [3, 1, 3] });
    expect(repeated.error?.issues.map((i) => [i.path, inEnglish(i.message)])).toEqual([
      [['position_ids'], 'Position 3 is listed more than once'],
    ]);
    expect(body.safeParse({ position_ids: [0] }).success).toBe(false);
    expect(body.safeParse({ position_ids: ['1'] }).success).toBe(false);
    expect(body.safeParse({ position_ids: Array.from({ length: MAX_POSITIONS + 1 }, (_, i) => i + 1) }).success).toBe(false);
  });
});
