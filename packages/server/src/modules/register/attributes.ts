import {
  parseAttributeValue,
  ruleProblem,
  type AttributeDef,
  type AttributeValue,
  type Attributes,
  type ElectedIn,
  type Rule,
} from '@kura/contract';
import type { Core } from '../../core';
import type { Tx } from '../../db/client';
import {
  keyShareElection,
  lockOrganisation,
  nameElection,
  setAttributeDefs,
  shareOrganisation,
  shareUnclosedElectorateRules,
} from '../../db/election-store';
import { eligibilityRulesOfUnclosed, positionIdsOfElection } from '../../db/position-store';
import { AppError, fromContract, type FieldMessage } from '../../errors';
import type { Said } from '../../i18n';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { describeRule, readAttributeDefs } from './roll';

/**
 * The organisation's member attributes and the rules that name them (docs/api.md "The register"):
 * defining them, checking rules against them, and checking a member's values.
 */

/** Locks the organisation's row (key share, as a foreign key would): an attribute change in flight commits first, a later one waits. */
async function lockedDefs(tx: Tx): Promise<AttributeDef[]> {
  await shareOrganisation(tx);
  return readAttributeDefs(tx);
}

/**
 * Checks rules against the organisation's attributes (422 naming `field.i.attribute|op|value`).
 * Reads the attributes under a share lock, so an attribute removal cannot slip between the check
 * and the rules' write.
 */
export async function checkRules(tx: Tx, rules: readonly Rule[] | undefined, field: string): Promise<void> {
  if (!rules || rules.length === 0) return;
  const defs = await lockedDefs(tx);
  const errors: Record<string, FieldMessage[]> = {};
  rules.forEach((rule, i) => {
    const problem = ruleProblem(
      rule,
      defs.find((d) => d.key === rule.attribute),
    );
    // The contract's own check (the web's rule editor runs it too): its message by code.
    if (problem) errors[`${field}.${i}.${problem.field}`] = [fromContract(problem.message)];
  });
  if (Object.keys(errors).length) throw AppError.fields(errors);
}

/** `elected_in` names an election, and positions of that election (422 naming the field). */
export async function checkElectedIn(tx: Tx, electedIn: ElectedIn | null | undefined, self?: number): Promise<void> {
  if (!electedIn) return;
  if (electedIn.election_id === self)
    throw AppError.fieldsSaid({ 'electorate.elected_in.election_id': [{ id: 'field.electorateNotItself' }] });
  if (!(await keyShareElection(tx, electedIn.election_id)))
    throw AppError.fieldsSaid({
      'electorate.elected_in.election_id': [{ id: 'field.noElectionId', values: { id: electedIn.election_id } }],
    });
  if (electedIn.position_ids && electedIn.position_ids.length) {
    const ids = [...new Set(electedIn.position_ids)];
    const own = await positionIdsOfElection(tx, electedIn.election_id, ids);
    const known = new Set(own.map((p) => p.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length)
      throw AppError.fieldsSaid({
        'electorate.elected_in.position_ids': [
          { id: 'field.electionNoPositionIds', values: { election: electedIn.election_id, ids: unknown.join(', ') } },
        ],
      });
  }
}

/**
 * A member's attribute values as the request gives them (a subset; null clears one), checked
 * against the organisation's attributes: a key it does not define or a value that does not parse
 * as its type is a 422 naming `attributes.key`. Answers the values as stored (null: clear).
 */
export function checkMemberAttributes(defs: readonly AttributeDef[], input: Record<string, unknown> | undefined): Attributes {
  if (!input) return {};
  const errors: Record<string, Said[]> = {};
  const out: Attributes = {};
  for (const [key, raw] of Object.entries(input)) {
    const def = defs.find((d) => d.key === key);
    if (!def) {
      errors[`attributes.${key}`] = [{ id: 'field.attributeUnknown', values: { key } }];
      continue;
    }
    const value = parseAttributeValue(def.type, raw);
    if (value === undefined)
      errors[`attributes.${key}`] = [{ id: 'field.attributeFormat', values: { label: def.label, format: def.type } }];
    else out[key] = value;
  }
  if (Object.keys(errors).length) throw AppError.fieldsSaid(errors);
  return out;
}

/** The stored attributes after applying `patch` (null removes a key). */
export function mergeAttributes(
  stored: Record<string, number | string | boolean>,
  patch: Attributes,
): Record<string, number | string | boolean> {
  const out = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** A member's attributes as the API shows them: every defined key, null when the member has none. */
export function shownAttributes(
  defs: readonly AttributeDef[],
  stored: Record<string, unknown> | null | undefined,
): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const d of defs) {
    const v = stored?.[d.key];
    out[d.key] = v === undefined ? null : (v as AttributeValue);
  }
  return out;
}

/** Where a rule that names `key` stands: elections not closed (their electorate) and their positions (eligibility). */
async function rulesUsing(tx: Tx, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const defs = await readAttributeDefs(tx);
  const found: string[] = [];
  const elections = await shareUnclosedElectorateRules(tx);
  for (const e of elections)
    (e.rules ?? []).forEach((r, i) => {
      if (keys.includes(r.attribute)) found.push(`${nameElection(e.id, e.title)}, electorate rule ${i + 1} (${describeRule(r, defs)})`);
    });
  const held = await eligibilityRulesOfUnclosed(tx);
  for (const p of held)
    (p.rules ?? []).forEach((r, i) => {
      if (keys.includes(r.attribute))
        found.push(`election ${p.electionId}, ${p.name} ${p.level} eligibility rule ${i + 1} (${describeRule(r, defs)})`);
    });
  return found;
}

/**
 * Replaces the organisation's attributes (`PUT organisation/attributes`). Removing or retyping a
 * key that a rule of an election not closed uses is a 409 naming the rule. Members' stored values
 * stay (a key defined again shows them again; a value of another type meets no rule).
 */
export async function putAttributeDefs(ctx: Core, actor: Actor, defs: AttributeDef[]): Promise<AttributeDef[]> {
  return auditedTransaction(
    ctx,
    { actor, activity: 'Member attributes updated', data: defs.map((d) => `${d.key}:${d.type}`).join(', ') || 'none' },
    async (tx) => {
      await lockOrganisation(tx);
      const before = await readAttributeDefs(tx);
      const changed = before.filter((b) => {
        const after = defs.find((d) => d.key === b.key);
        return !after || after.type !== b.type;
      });
      const using = await rulesUsing(
        tx,
        changed.map((c) => c.key),
      );
      if (using.length)
        throw AppError.say(
          'CONFLICT',
          'error.attributeInUse',
          { rules: using.slice(0, 5).join('; ') },
          {
            issue: 'attribute_in_use',
          },
        );
      await setAttributeDefs(tx, defs, ctx.now());
      return defs;
    },
  );
}
