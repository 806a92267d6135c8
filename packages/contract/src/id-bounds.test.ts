import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, MAX_ID } from './index';

/**
 * Every number a request may carry is a bounded whole number: a route added later with an
 * unbounded `z.number()` in its path, query or body fails here, so no id reaches the database
 * out of the 4-byte `integer` range (a driver error, once a 500).
 */

function routes(router: AppRouter, out: [string, AppRoute][] = []): [string, AppRoute][] {
  for (const [name, r] of Object.entries(router)) {
    if (isAppRoute(r)) out.push([name, r]);
    else routes(r as AppRouter, out);
  }
  return out;
}

/** Every ZodNumber reachable from a schema, with its path for the failure message. */
function numbers(schema: unknown, path: string, out: [string, z.ZodNumber][] = [], seen = new Set<unknown>()): [string, z.ZodNumber][] {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return out;
  seen.add(schema);
  const def = schema._def as Record<string, unknown>;
  if (schema instanceof z.ZodNumber) out.push([path, schema]);
  else if (schema instanceof z.ZodObject)
    for (const [k, v] of Object.entries(schema.shape as Record<string, unknown>)) numbers(v, `${path}.${k}`, out, seen);
  else if (schema instanceof z.ZodRecord) {
    numbers(def.keyType, `${path}[key]`, out, seen);
    numbers(def.valueType, `${path}[*]`, out, seen);
  } else if (schema instanceof z.ZodArray) numbers(def.type, `${path}[]`, out, seen);
  else if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion)
    (def.options as unknown[]).forEach((o, i) => numbers(o, `${path}|${i}`, out, seen));
  else if (schema instanceof z.ZodEffects) numbers(def.schema, path, out, seen);
  else if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    numbers(def.innerType, path, out, seen);
  else if (schema instanceof z.ZodTuple) (def.items as unknown[]).forEach((o, i) => numbers(o, `${path}[${i}]`, out, seen));
  else if (schema instanceof z.ZodIntersection) {
    numbers(def.left, path, out, seen);
    numbers(def.right, path, out, seen);
  } else if (schema instanceof z.ZodLazy) numbers((def.getter as () => unknown)(), path, out, seen);
  else if (schema instanceof z.ZodPipeline) {
    numbers(def.in, path, out, seen);
    numbers(def.out, path, out, seen);
  }
  return out;
}

describe('numeric ids in requests', () => {
  const all = routes(contract).flatMap(([name, r]) => [
    ...numbers((r as { pathParams?: unknown }).pathParams, `${name}.params`),
    ...numbers(r.query, `${name}.query`),
    ...numbers(r.method === 'GET' ? undefined : (r as { body?: unknown }).body, `${name}.body`),
  ]);

  it('finds the ids the contract takes (the walk itself works)', () => {
    const paths = all.map(([p]) => p);
    expect(paths).toContain('castVote.body.candidates[*]|0'); // one candidate, or a list of them (several seats)
    expect(paths).toContain('updateMember.params.id');
    expect(paths).toContain('updateCandidate.body.position_ids[]');
    expect(paths).toContain('searchVvpat.query.psk_position_id');
    expect(all.length).toBeGreaterThan(8);
  });

  /**
   * The organisation's own values (docs/api.md "The register"): a number attribute (shares in KSh,
   * 12.5) and a rule's number compared with it. No id: kept in jsonb and compared as numeric, so
   * they need only be finite.
   */
  const isValue = (p: string) =>
    /^(create|update)Member\.body\.attributes\[\*\]\|0$|\.(eligibility|electorate\.rules)\[\]\.value\|0$/.test(p);

  it('every number a request carries is a whole number between 1 (or 0) and the 4-byte integer maximum', () => {
    const unbounded = all
      .filter(([p]) => !isValue(p))
      .filter(([, n]) => !n.isInt || n.maxValue === null || n.maxValue > MAX_ID || n.minValue === null || n.minValue < 0)
      .map(([p]) => p);
    expect(unbounded).toEqual([]);
  });

  it("an attribute's or a rule's number is finite (the register's values, not ids)", () => {
    const values = all.filter(([p]) => isValue(p));
    expect(values.map(([p]) => p)).toHaveLength(6);
    expect(values.filter(([, n]) => !n.isFinite).map(([p]) => p)).toEqual([]);
  });

  it('refuses 1e20, 2^53+1 and MAX_ID + 1 wherever an id goes, and keeps MAX_ID', () => {
    const vote = contract.api.ballots.castVote.body;
    for (const huge of [1e20, Number('9007199254740993'), MAX_ID + 1]) {
      expect(vote.safeParse({ candidates: { 1: huge } }).success, String(huge)).toBe(false);
      expect(vote.safeParse({ candidates: { [String(huge)]: 1 } }).success, `key ${huge}`).toBe(false);
      expect(contract.api.members.updateMember.pathParams.safeParse({ id: String(huge) }).success).toBe(false);
      expect(contract.api.vvpat.searchVvpat.query.safeParse({ psk_position_id: String(huge) }).success).toBe(false);
      expect(contract.api.members.assignPositions.body.safeParse({ member_no: '1234', position_ids: [huge] }).success).toBe(false);
    }
    expect(vote.safeParse({ candidates: { [String(MAX_ID)]: MAX_ID } }).success).toBe(true);
    expect(contract.api.members.updateMember.pathParams.parse({ id: String(MAX_ID) })).toEqual({ id: MAX_ID });
  });
});
