import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { z } from 'zod';
import {
  BallotGroup,
  Branch,
  Candidate,
  LogEntry,
  Member,
  PageMeta,
  Position,
  ResultGroup,
  ResultValue,
  Session,
  Statistics,
  VvpatRow,
  type Access,
  type RouteMetadata,
} from './common';
import { Commitment } from './elections';
import { CHANNEL_ACCESS, CHANNEL_EVENTS, CHANNELS, channelName, EVENT_PAYLOADS } from './realtime';

/**
 * Renders the machine-written parts of docs/api.md from the contract: one table of calls per
 * domain (method, path, who may call it, request, answers) and the realtime channel table.
 * `pnpm docs:api` writes them into docs/api.md between the `generated:` markers; the test
 * beside this file fails when docs/api.md and the contract disagree.
 */

/** What each access level means to a caller, in the words the tables use. */
export const ACCESS_WORDS: Record<Access, string> = {
  anyone: 'anyone',
  'signed-in': 'any signed-in user',
  voter: 'voter',
  agent: 'agent, admin',
  admin: 'admin',
  'pending-voter': 'voter mid sign-in (pending cookie)',
  'pending-admin': 'admin mid sign-in (pending cookie)',
  'pending-agent': 'agent mid sign-in (pending cookie)',
};

/** Error statuses every route may answer; the tables list only each route's own on top. */
export const COMMON_ERROR_STATUSES = [400, 422, 429, 500, 503];

/** Shapes shared by many calls: the tables name them, the "Shared shapes" block spells them out. */
export const SHARED_SHAPES: Record<string, z.ZodTypeAny> = {
  Session,
  Position,
  Branch,
  Member,
  Candidate,
  BallotGroup,
  ResultValue,
  ResultGroup,
  Statistics,
  LogEntry,
  VvpatRow,
  Commitment,
  PageMeta,
};
const sharedName = new Map<unknown, string>(Object.entries(SHARED_SHAPES).map(([name, schema]) => [schema, name]));

/** A short, one-line picture of a zod schema: `{a, b?, c: Position[]}`; shared shapes by name. */
export function describeSchema(schema: unknown, depth = 0, expandShared = false): string {
  if (!(schema instanceof z.ZodType)) return '…';
  const shared = sharedName.get(schema);
  if (shared && !expandShared) return shared;
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  switch (def.typeName) {
    case 'ZodObject': {
      const shape = (schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      if (depth >= 3) return '{…}';
      const keys = Object.entries(shape).map(([key, value]) => {
        const optional = value.isOptional() ? '?' : '';
        const inner = describeSchema(value, depth + 1);
        return isScalar(inner) ? `${key}${optional}` : `${key}${optional}: ${inner}`;
      });
      return `{${keys.join(', ')}}`;
    }
    case 'ZodArray':
      return `${describeSchema(def.type, depth)}[]`;
    case 'ZodRecord':
      return `{[key]: ${describeSchema(def.valueType, depth + 1)}}`;
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodBranded':
    case 'ZodReadonly':
      return describeSchema(def.innerType ?? def.type, depth);
    case 'ZodEffects':
      return describeSchema(def.schema, depth);
    case 'ZodPipeline':
      return describeSchema(def.out, depth);
    case 'ZodLazy':
      return describeSchema((def.getter as () => unknown)(), depth);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion': {
      const parts = [...new Set((def.options as unknown[]).map((o) => describeSchema(o, depth)))];
      return parts.join(' \\| ');
    }
    case 'ZodEnum':
      return (def.values as string[]).map((v) => JSON.stringify(v)).join(' \\| ');
    case 'ZodLiteral':
      return JSON.stringify(def.value);
    case 'ZodString':
      return 'string';
    case 'ZodNumber':
      return 'number';
    case 'ZodBoolean':
      return 'boolean';
    default:
      return 'value';
  }
}

/** Scalars are listed by key alone in an object (`{message}`), so the tables stay readable. */
const isScalar = (description: string) =>
  /^(value|string|number|boolean)$/.test(description) || /^"/.test(description) || /^(true|false|\d+)$/.test(description);

function describeBody(body: unknown): string {
  if (typeof body === 'symbol') return 'no body';
  if (body && typeof body === 'object' && 'contentType' in body) return `\`${(body as { contentType: string }).contentType}\``;
  return `\`${describeSchema(body)}\``;
}

function describeRequest(route: AppRoute): string {
  const parts: string[] = [];
  if (route.pathParams) parts.push(`path \`${route.path.match(/:\w+/g)?.join(', ') ?? ''}\``);
  if (route.query) parts.push(`query \`${describeSchema(route.query)}\``);
  if (route.method !== 'GET' && 'body' in route && route.body !== undefined && typeof route.body !== 'symbol') {
    const kind = 'contentType' in route && route.contentType === 'multipart/form-data' ? 'multipart ' : '';
    parts.push(`${kind}\`${describeSchema(route.body)}\``);
  }
  return parts.join('; ') || '–';
}

function describeAnswers(route: AppRoute): { success: string; errors: string } {
  const statuses = Object.keys(route.responses).map(Number);
  const success = statuses.filter((s) => s < 400).map((s) => `${s} ${describeBody(route.responses[s])}`);
  const own = statuses.filter((s) => s >= 400 && !COMMON_ERROR_STATUSES.includes(s));
  return { success: success.join('; '), errors: own.join(', ') || '–' };
}

const cell = (text: string) =>
  text.replace(/\|/g, (m, offset: number, all: string) => (all[offset - 1] === '\\' ? m : '\\|')).replace(/\n/g, ' ');

type Entry = { domain: string; name: string; route: AppRoute };

/** Every route of a router with its domain (the key of the router that holds it) and name. */
export function contractRoutes(router: AppRouter, path: string[] = []): Entry[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value as AppRoute | AppRouter)
      ? [{ domain: path[path.length - 1] ?? key, name: key, route: value as AppRoute }]
      : contractRoutes(value as AppRouter, [...path, key]),
  );
}

/** The endpoint tables, one per contract domain, in contract order. */
export function renderEndpoints(contract: AppRouter): string {
  const byDomain = new Map<string, Entry[]>();
  for (const entry of contractRoutes(contract)) byDomain.set(entry.domain, [...(byDomain.get(entry.domain) ?? []), entry]);
  const out: string[] = [];
  for (const [domain, list] of byDomain) {
    out.push(`### ${domain}`, '');
    out.push('| Call | Who | What | Request | Success | Own errors |', '|---|---|---|---|---|---|');
    for (const { name, route } of list) {
      const access = (route.metadata as RouteMetadata | undefined)?.access;
      const answers = describeAnswers(route);
      out.push(
        `| \`${route.method} ${route.path}\` <br>\`${name}\` | ${access ? ACCESS_WORDS[access] : '**no access metadata**'} | ${cell(route.summary ?? '')} | ${cell(describeRequest(route))} | ${cell(answers.success)} | ${answers.errors} |`,
      );
    }
    const notes = list.filter(({ route }) => route.description);
    if (notes.length) {
      out.push('');
      for (const { name, route } of notes) out.push(`- \`${name}\`: ${route.description!.replace(/\n/g, ' ')}`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** The realtime channel table, from the contract's channel constants. */
export function renderRealtime(): string {
  const rows = CHANNELS.map((channel) => {
    const event = CHANNEL_EVENTS[channel];
    const who = CHANNEL_ACCESS[channel] === 'staff' ? 'admin, agent (handshake `auth: {token}`)' : 'anyone';
    // `changes` is one room for every election: it has no suffixed name.
    const names = channelName(channel, 7) === channel ? `\`${channel}\`` : `\`${channel}\`, \`${channelName(channel, 7)}\``;
    return `| ${names} | \`${event}\` | \`${cell(describeSchema(EVENT_PAYLOADS[event]))}\` | ${who} |`;
  });
  return ['| Channel | Event | Payload | Who may join |', '|---|---|---|---|', ...rows].join('\n');
}

/** The shared shapes, spelled out with their field types. */
export function renderShapes(): string {
  const typed = (schema: z.ZodTypeAny): string => {
    if (!(schema instanceof z.ZodObject)) return describeSchema(schema, 0, true);
    const fields = Object.entries(schema.shape as Record<string, z.ZodTypeAny>).map(([key, value]) => {
      const nullable = value.isNullable() ? ' \\| null' : '';
      return `${key}${value.isOptional() ? '?' : ''}: ${describeSchema(value, 1)}${nullable}`;
    });
    return `{${fields.join(', ')}}`;
  };
  return [
    '| Shape | Fields |',
    '|---|---|',
    ...Object.entries(SHARED_SHAPES).map(([name, schema]) => `| \`${name}\` | \`${cell(typed(schema))}\` |`),
  ].join('\n');
}

/** The generated blocks of docs/api.md, by marker name. */
export function generatedBlocks(contract: AppRouter): Record<string, string> {
  return { shapes: renderShapes(), endpoints: renderEndpoints(contract), realtime: renderRealtime() };
}

const blockPattern = (name: string) => new RegExp(`(<!-- generated:${name} [^>]*-->\\n)([\\s\\S]*?)\\n?(<!-- /generated:${name} -->)`);

/** The text of one generated block of the document, or undefined when its markers are missing. */
export function readBlock(doc: string, name: string): string | undefined {
  return blockPattern(name).exec(doc)?.[2];
}

/** The document with every generated block replaced by its fresh rendering. */
export function spliceBlocks(doc: string, blocks: Record<string, string>): string {
  let out = doc;
  for (const [name, text] of Object.entries(blocks)) {
    if (!blockPattern(name).test(out))
      throw new Error(`docs/api.md has no <!-- generated:${name} --> … <!-- /generated:${name} --> markers`);
    out = out.replace(blockPattern(name), (_m, open: string, _old: string, close: string) => `${open}${text}\n${close}`);
  }
  return out;
}
