import { z } from 'zod';
import { said } from './messages';

/**
 * The register's attributes and rules (docs/api.md "The register: member attributes, eligibility
 * rules and inspection"): pure schemas and the rule evaluation, shared by the server and the web.
 */

export const ATTRIBUTE_TYPES = ['number', 'date', 'text', 'boolean'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Keys an attribute may not take: the register's own columns and the import's. */
export const BUILT_IN_COLUMNS = [
  'id',
  'member_no',
  'name',
  'email',
  'phone',
  'branch',
  'county',
  'language',
  'attributes',
  'created_at',
  'updated_at',
] as const;

export const ATTRIBUTE_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export const AttributeDef = z.object({
  key: z
    .string({
      required_error: said('field.isRequiredPlain', { field: 'key' }),
      invalid_type_error: said('field.mustBeText', { field: 'key' }),
    })
    .regex(ATTRIBUTE_KEY, said('field.attributeKeyFormat'))
    .refine((k) => !(BUILT_IN_COLUMNS as readonly string[]).includes(k), said('field.attributeKeyBuiltIn')),
  label: z
    .string({
      required_error: said('field.isRequiredPlain', { field: 'label' }),
      invalid_type_error: said('field.mustBeText', { field: 'label' }),
    })
    .trim()
    .min(1, said('field.isRequiredPlain', { field: 'label' }))
    .max(100, said('field.maxLength', { n: 100 })),
  type: z.enum(ATTRIBUTE_TYPES, {
    errorMap: () => ({ message: said('field.oneOf', { field: 'type', options: ['number', 'date', 'text', 'boolean'] }) }),
  }),
});
export type AttributeDef = z.infer<typeof AttributeDef>;

export const AttributesBody = z.object({
  data: z
    .array(AttributeDef, { required_error: said('field.isRequired', { field: 'data' }), invalid_type_error: said('field.attributesList') })
    .max(50, said('field.atMostAttributes', { n: 50 }))
    .superRefine((defs, ctx) => {
      const seen = new Set<string>();
      defs.forEach((d, i) => {
        if (seen.has(d.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: said('field.attributeKeyTwice', { key: d.key }) });
        seen.add(d.key);
      });
    }),
});
export type AttributesBody = z.infer<typeof AttributesBody>;

/** A member's attribute value: number, "YYYY-MM-DD", text or boolean; null: none. */
export const AttributeValue = z.union([z.number().finite(), z.string(), z.boolean(), z.null()]);
export type AttributeValue = z.infer<typeof AttributeValue>;
export type Attributes = Record<string, AttributeValue>;

export const RULE_OPS = ['at_least', 'at_most', 'equals', 'not_equals', 'one_of', 'on_or_before', 'on_or_after'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** Which operators each attribute type takes. */
export const OPS_BY_TYPE: Record<AttributeType, readonly RuleOp[]> = {
  number: ['at_least', 'at_most', 'equals', 'not_equals'],
  date: ['on_or_before', 'on_or_after', 'equals', 'not_equals'],
  text: ['equals', 'not_equals', 'one_of'],
  boolean: ['equals', 'not_equals'],
};

export const RelativeDate = z.union([
  z.object({ years_before: z.number().int().min(0).max(200) }).strict(),
  z.object({ days_before: z.number().int().min(0).max(73000) }).strict(),
]);
export type RelativeDate = z.infer<typeof RelativeDate>;

export const Rule = z
  .object({
    attribute: z
      .string({ required_error: said('field.isRequiredPlain', { field: 'attribute' }), invalid_type_error: said('field.attributeKey') })
      .regex(ATTRIBUTE_KEY, said('field.attributeKey')),
    op: z.enum(RULE_OPS, {
      errorMap: () => ({ message: said('field.oneOfList', { field: 'op', options: RULE_OPS.join(', ') }) }),
    }),
    value: z.union(
      [
        z.number().finite(),
        z.string().max(200, said('field.maxLength', { n: 200 })),
        z.boolean(),
        z
          .array(z.string().max(200, said('field.maxLength', { n: 200 })))
          .min(1, said('field.listOneValue'))
          .max(100, said('field.atMostValues', { n: 100 })),
        RelativeDate,
      ],
      {
        errorMap: () => ({ message: said('field.ruleValue') }),
      },
    ),
  })
  .strict();
export type Rule = z.infer<typeof Rule>;

export const RulesSchema = z.array(Rule, { invalid_type_error: said('field.rulesList') }).max(20, said('field.atMostRules', { n: 20 }));

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Whether the text is a calendar date written YYYY-MM-DD. */
export function isDateText(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * What is wrong with a rule given the attribute it names (undefined: nothing): the field and the
 * message. The server refuses such a rule with a 422 at that field; the web's rule editor uses it too.
 */
export function ruleProblem(
  rule: Rule,
  def: AttributeDef | undefined,
): { field: 'attribute' | 'op' | 'value'; message: string } | undefined {
  if (!def) return { field: 'attribute', message: said('field.attributeUnknown', { key: rule.attribute }) };
  if (!OPS_BY_TYPE[def.type].includes(rule.op))
    return { field: 'op', message: said('field.attributeTakes', { type: def.type, ops: OPS_BY_TYPE[def.type].join(', ') }) };
  const v = rule.value;
  const relative = typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (def.type) {
    case 'number':
      return typeof v === 'number' ? undefined : { field: 'value', message: said('field.mustBeNumber', { field: 'value' }) };
    case 'boolean':
      return typeof v === 'boolean' ? undefined : { field: 'value', message: said('field.trueOrFalse', { field: 'value' }) };
    case 'date':
      return relative || (typeof v === 'string' && isDateText(v)) ? undefined : { field: 'value', message: said('field.ruleValueDate') };
    case 'text':
      if (rule.op === 'one_of') return Array.isArray(v) ? undefined : { field: 'value', message: said('field.ruleValueList') };
      return typeof v === 'string' ? undefined : { field: 'value', message: said('field.mustBeText', { field: 'value' }) };
  }
}

/** A value as an attribute of this type stores it (undefined: it does not parse), from a CSV cell or JSON. */
export function parseAttributeValue(type: AttributeType, raw: unknown): AttributeValue | undefined {
  if (raw === null || raw === '') return null;
  switch (type) {
    case 'number': {
      if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
      if (typeof raw !== 'string' || !/^-?\d+(\.\d+)?$/.test(raw.trim())) return undefined;
      const n = Number(raw.trim());
      return Number.isFinite(n) ? n : undefined;
    }
    case 'date':
      return typeof raw === 'string' && isDateText(raw.trim()) ? raw.trim() : undefined;
    case 'text':
      return typeof raw === 'string' && raw.trim().length <= 200 ? raw.trim() || null : undefined;
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw !== 'string') return undefined;
      const t = raw.trim().toLowerCase();
      if (['true', 'yes', '1', 'ndiyo'].includes(t)) return true;
      if (['false', 'no', '0', 'hapana'].includes(t)) return false;
      return undefined;
    }
  }
}

/** What a value of each type looks like, for a line error. */
export const ATTRIBUTE_FORMAT: Record<AttributeType, string> = {
  number: 'a number, e.g. 20000 or 12.5',
  date: 'a date written YYYY-MM-DD',
  text: 'text of at most 200 characters',
  boolean: 'yes or no (true/false, 1/0)',
};

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The day a relative date names, counted back from `ref` (YYYY-MM-DD); a 29 February a year back is the 28th. */
export function daysBack(ref: string, relative: RelativeDate): string {
  const [y, m, d] = ref.split('-').map(Number) as [number, number, number];
  if ('days_before' in relative) return new Date(Date.UTC(y, m - 1, d) - relative.days_before * 86400000).toISOString().slice(0, 10);
  const year = y - relative.years_before;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return new Date(Date.UTC(year, m - 1, Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * Whether a value meets a rule, `ref` the day relative dates count back from (the election's
 * opening day in the organisation's time zone, today while it has none). A missing value never
 * meets a rule. The roll's SQL (`rule_met`, db/schema/functions.ts) is the same rule; a test runs both.
 */
export function ruleMet(rule: Rule, value: AttributeValue | undefined, ref: string): boolean {
  if (value === null || value === undefined) return false;
  const target = rule.value;
  if (typeof value === 'number') {
    if (typeof target !== 'number') return false;
    if (rule.op === 'at_least') return value >= target;
    if (rule.op === 'at_most') return value <= target;
    if (rule.op === 'equals') return value === target;
    if (rule.op === 'not_equals') return value !== target;
    return false;
  }
  if (typeof value === 'boolean') {
    if (typeof target !== 'boolean') return false;
    if (rule.op === 'equals') return value === target;
    if (rule.op === 'not_equals') return value !== target;
    return false;
  }
  if (rule.op === 'one_of') return Array.isArray(target) && target.includes(value);
  const t = typeof target === 'string' ? target : typeof target === 'object' && !Array.isArray(target) ? daysBack(ref, target) : undefined;
  if (t === undefined) return false;
  if (rule.op === 'on_or_before') return value <= t;
  if (rule.op === 'on_or_after') return value >= t;
  if (rule.op === 'equals') return value === t;
  if (rule.op === 'not_equals') return value !== t;
  return false;
}
