import type { AppRoute } from '@ts-rest/core';
import {
  CHANNELS,
  EVENT_PAYLOADS,
  CHANNEL_EVENTS,
  RESULT_CHANNELS,
  type Access,
  type ResultChannel,
  type ResultsVisibility,
} from '@kura/contract';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { rolesFor } from '../../src/auth/access';
import { flattenRoutes } from '../../src/http/routes';
import { currentElectionId } from '../../src/db/election-store';
import { callRoute, contractClient } from '../client';
import { useResultsVisibility, WHO, type Who } from '../voting/results-visibility';
import { connectClient, subscribe } from '../voting/sockets';

/**
 * Every route and realtime channel that can carry a count, found from the contract (not listed by
 * hand), checked against the results-visibility rule of API.md in each mode × {anonymous, voter,
 * agent, admin}, before and after close (SECURITY.md "Results visibility").
 *
 * A carrier is a response (or payload) schema with a numeric field named like a count (count,
 * total, votes, tally, turnout, voted…), or a list of receipts with the candidate chosen on each
 * (counting those rows gives the per-candidate counts), or a body the schema cannot see into (a
 * CSV download). Each carrier must have a policy below; a route added with a count and no policy
 * fails the first test.
 */

const isStaff = (who: Who) => who === 'agent' || who === 'admin';

/**
 * The rule, written out independently of the server's code:
 * - per-candidate counts: everyone in `live`, staff in `staff`, nobody in `after_close`; everyone once closed;
 * - per-position totals (the `votes` channel): everyone in `live`, staff otherwise; everyone once closed.
 */
const seesCounts = (mode: ResultsVisibility, who: Who, closed: boolean) => closed || mode === 'live' || (mode === 'staff' && isStaff(who));
const seesTotals = (mode: ResultsVisibility, who: Who, closed: boolean) => closed || mode === 'live' || isStaff(who);

/**
 * How each carrier obeys the rule:
 * - `refused`: a caller who may not see counts gets 403 (the body is the counts, or derives them);
 * - `count-withheld`: the caller's own receipts stay, each `count` is null;
 * - `declared`: the declared result, 403 before close for everyone, public after;
 * - `staff-statistics`: turnout counters, staff-only in every mode (API.md: agents keep statistics);
 * - `not-results`, with the reason: the number is not a vote count of a candidate or position.
 */
type Policy =
  | { kind: 'refused' }
  | { kind: 'count-withheld' }
  | { kind: 'declared' }
  /** A file of the declared ballots (a ranked position's BLT): 403 before close; after close the file, or 404 for a position that is not ranked. */
  | { kind: 'declared-ballots' }
  | { kind: 'staff-statistics' }
  | { kind: 'not-results'; why: string };

const ROUTE_POLICY: Record<string, Policy> = {
  'api.elections.getResults': { kind: 'refused' },
  'api.elections.getDashboard': { kind: 'refused' },
  'api.elections.getAgentResults': { kind: 'refused' },
  'api.elections.exportResults': { kind: 'refused' },
  'api.vvpat.listVvpat': { kind: 'refused' },
  'api.vvpat.searchVvpat': { kind: 'refused' },
  'api.vvpat.getMyVvpat': { kind: 'count-withheld' },
  'api.lifecycle.getFinalResults': { kind: 'declared' },
  'api.lifecycle.getRankedBallots': { kind: 'declared-ballots' },
  /** The evidence pack (results.json and the ballots inside): 403 before close; staff only, by its access. */
  'api.evidence.getEvidence': { kind: 'declared' },
  /** The declaration PDF: the declared result, public once closed, 403 before for everyone. */
  'api.evidence.getDeclarationPdf': { kind: 'declared' },
  'api.elections.getStatistics': { kind: 'staff-statistics' },
  'api.elections.getAgentStatistics': { kind: 'staff-statistics' },
  'api.elections.listCommitments': {
    kind: 'not-results',
    why: 'the number of ballots in the whole set, public by API.md so anyone can check the commitments',
  },
  'api.members.getImportTemplate': { kind: 'not-results', why: 'the members import template: a header and two example lines' },
  'api.reminders.createReminder': { kind: 'not-results', why: 'recipients of a reminder' },
  'api.reminders.getReminder': { kind: 'not-results', why: 'messages sent by a reminder' },
  'api.reminders.listReminders': { kind: 'not-results', why: 'messages sent by reminders' },
};

const CHANNEL_RULE: Record<ResultChannel, (mode: ResultsVisibility, who: Who, closed: boolean) => boolean> = {
  results: seesCounts,
  tally: seesCounts,
  votes: seesTotals,
  statistics: (_mode, who) => isStaff(who),
};

const COUNT_NAME = /count|total|vote|tall|turnout|voted/i;

/** The paths of count-like fields in a schema ("data.votes[].count"); a receipt row with its choice is one too. */
function countFields(schema: z.ZodTypeAny, path = '', seen = new Set<z.ZodTypeAny>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = (schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      const own: string[] = [];
      // Page metadata counts the rows of a listing, not votes.
      const isPageMeta = 'per_page' in shape && 'current_page' in shape;
      if ('vvpat' in shape && 'name' in shape) own.push(`${path}{vvpat, name}`);
      for (const [key, value] of Object.entries(shape)) {
        const at = path ? `${path}.${key}` : key;
        if (COUNT_NAME.test(key) && isNumeric(value) && !(isPageMeta && key === 'total')) own.push(at);
        own.push(...countFields(value, at, seen));
      }
      return own;
    }
    case 'ZodArray':
      return countFields(def.type as z.ZodTypeAny, `${path}[]`, seen);
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodReadonly':
    case 'ZodCatch':
    case 'ZodBranded':
      return countFields((def.innerType ?? def.type) as z.ZodTypeAny, path, seen);
    case 'ZodEffects':
      return countFields(def.schema as z.ZodTypeAny, path, seen);
    case 'ZodPipeline':
      return [...countFields(def.in as z.ZodTypeAny, path, seen), ...countFields(def.out as z.ZodTypeAny, path, seen)];
    case 'ZodLazy':
      return countFields((def.getter as () => z.ZodTypeAny)(), path, seen);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return (def.options as z.ZodTypeAny[]).flatMap((o) => countFields(o, path, seen));
    case 'ZodIntersection':
      return [...countFields(def.left as z.ZodTypeAny, path, seen), ...countFields(def.right as z.ZodTypeAny, path, seen)];
    case 'ZodRecord':
      return countFields(def.valueType as z.ZodTypeAny, `${path}{}`, seen);
    default:
      return [];
  }
}

function isNumeric(schema: z.ZodTypeAny): boolean {
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  if (def.typeName === 'ZodNumber' || def.typeName === 'ZodBigInt') return true;
  if (['ZodOptional', 'ZodNullable', 'ZodDefault', 'ZodReadonly'].includes(def.typeName ?? ''))
    return isNumeric(def.innerType as z.ZodTypeAny);
  if (def.typeName === 'ZodEffects') return isNumeric(def.schema as z.ZodTypeAny);
  return false;
}

/** The count fields of a route's success answers; a body the schema cannot see into is one too. */
function routeCarries(route: AppRoute): string[] {
  return Object.entries(route.responses)
    .filter(([status]) => Number(status) < 300)
    .flatMap(([, body]) => {
      if (body && typeof body === 'object' && 'contentType' in body) return [`(${(body as { contentType: string }).contentType} body)`];
      return body instanceof z.ZodType ? countFields(body) : [];
    });
}

const carriers = flattenRoutes()
  .map(({ key, route }) => ({ key, route, fields: routeCarries(route) }))
  .filter((r) => r.fields.length > 0);
const channelCarriers = CHANNELS.filter((ch) => countFields(EVENT_PAYLOADS[CHANNEL_EVENTS[ch]]).length > 0) as ResultChannel[];

describe('results carriers (derived from the contract)', () => {
  it('finds the known carriers, and every carrier has a visibility policy', () => {
    const keys = carriers.map((c) => c.key);
    // The finder works: the receipt views and the results are among what it finds.
    for (const known of ['api.vvpat.getMyVvpat', 'api.vvpat.listVvpat', 'api.elections.getResults', 'api.lifecycle.getFinalResults'])
      expect(keys).toContain(known);
    const unclassified = carriers.filter((c) => !ROUTE_POLICY[c.key]).map((c) => `${c.key}: ${c.fields.join(', ')}`);
    expect(unclassified, 'routes that carry a count but have no results-visibility policy').toEqual([]);
    // Every results channel carries counts; the staff `changes` channel names a kind of thing only.
    expect(channelCarriers.sort()).toEqual([...RESULT_CHANNELS].sort());
    // Every carrier that is not exempt is a read (a request for it is built below).
    for (const c of carriers) if (ROUTE_POLICY[c.key]!.kind !== 'not-results') expect(c.route.method, c.key).toBe('GET');
  });
});

const f = useResultsVisibility({
  // The voter who reads the receipts has voted; two more ballots make the counts worth hiding.
  readerVotes: (e) => ({ [e.chair.id]: e.alice.id, [e.treasurer.id]: e.carol.id }),
  otherVotes: (e) => [{ [e.chair.id]: e.alice.id }, { [e.chair.id]: e.alice.id }],
});
const { setMode } = f;

/** Who may call the route at all (the access matrix covers the others). */
function callers(access: Access): Who[] {
  const allowed = rolesFor(access);
  if (allowed === 'any') return WHO;
  if (allowed === 'none') return [];
  return WHO.filter((w) => w !== 'anonymous' && (allowed as readonly string[]).includes(w));
}

/** Every `count` value in a JSON body. */
function countsIn(body: unknown): unknown[] {
  if (Array.isArray(body)) return body.flatMap(countsIn);
  if (body && typeof body === 'object')
    return Object.entries(body).flatMap(([k, v]) => (k === 'count' ? [v, ...countsIn(v)] : countsIn(v)));
  return [];
}

async function check(mode: ResultsVisibility, closed: boolean) {
  for (const { key, route } of carriers) {
    const policy = ROUTE_POLICY[key]!;
    if (policy.kind === 'not-results') continue;
    for (const who of callers((route.metadata as { access: Access }).access)) {
      // The ballots file names its position; the fixture's are plurality ones (404 after close, never a file before).
      const args =
        policy.kind === 'declared-ballots'
          ? { query: { position_id: String(f.e.chair.id) } }
          : route.path.includes(':id')
            ? { params: { id: String(await currentElectionId(f.t.ctx.database.db)) } }
            : {};
      const res = await callRoute(contractClient(f.t.app, f.tokens[who]), key, args);
      const label = `${key} as ${who} in ${mode}${closed ? ', closed' : ''}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      switch (policy.kind) {
        case 'refused':
          expect(res.status, label).toBe(seesCounts(mode, who, closed) ? 200 : 403);
          break;
        case 'count-withheld': {
          expect(res.status, label).toBe(200);
          const counts = countsIn(res.body);
          expect(counts.length, label).toBeGreaterThan(0);
          if (seesCounts(mode, who, closed)) for (const n of counts) expect(typeof n, label).toBe('number');
          else expect(new Set(counts), label).toEqual(new Set([null]));
          // The receipts stay.
          expect(JSON.stringify(res.body), label).toMatch(/"vvpat":"[A-Z0-9-]+"/);
          break;
        }
        case 'declared':
          expect(res.status, label).toBe(closed ? 200 : 403);
          break;
        case 'declared-ballots':
          expect(res.status, label).toBe(closed ? 404 : 403);
          break;
        case 'staff-statistics':
          expect(res.status, label).toBe(200);
          break;
      }
    }
  }
  for (const who of WHO) {
    const socket = await connectClient(f.running.url, f.tokens[who]);
    f.sockets.push(socket);
    const ack = await subscribe(socket, [...channelCarriers]);
    const want = channelCarriers.filter((ch) => CHANNEL_RULE[ch](mode, who, closed));
    expect(ack.joined.sort(), `channels for ${who} in ${mode}${closed ? ', closed' : ''}`).toEqual([...want].sort());
    socket.close();
  }
}

describe('every carrier × mode × role', () => {
  for (const mode of ['live', 'staff', 'after_close'] as const) {
    it(`${mode}, before close`, async () => {
      await setMode(mode);
      await check(mode, false);
    });
  }

  it('after close, in the mode that hid most', async () => {
    await setMode('after_close');
    expect((await f.api.admin.lifecycle.closeElection()).status).toBe(200);
    await check('after_close', true);
    // The close, then every carrier as every role: the declared files (the evidence pack, the
    // declaration PDF) are built per call.
  }, 120_000);
});
