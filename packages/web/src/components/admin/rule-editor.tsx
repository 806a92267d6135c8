import { z } from 'zod';
import { isDateText, OPS_BY_TYPE, RULE_OPS, type AttributeDef, type Rule, type RuleOp } from '@kura/contract';
import { Plus, Trash2 } from 'lucide-react';
import { FieldError, selectClass } from '@/components/forms';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { intlLocale, t as translate, useT, type MessageKey } from '@/i18n';

/**
 * The register's rules (docs/api.md "The register: member attributes, eligibility rules and
 * inspection"), edited: one row per rule (attribute, condition, value), each said in words beside
 * it. The election form uses it for the electorate's rules, the position form for who may stand.
 */

/** What a date rule compares with: a day, or a count of years or days back from the opening. */
const WHEN = ['day', 'years_before', 'days_before'] as const;
type When = (typeof WHEN)[number];

/** A rule as its row holds it while the admin edits: the value as typed. */
export const RuleDraft = z.object({
  attribute: z.string(),
  op: z.enum(RULE_OPS),
  value: z.string(),
  when: z.enum(WHEN),
});
export type RuleDraft = z.infer<typeof RuleDraft>;

/** The most rules a list takes (the contract's RulesSchema). */
export const MAX_RULES = 20;
const MAX_BACK = { years_before: 200, days_before: 73000 } as const;

/** A stored rule as its row holds it. */
export function draftOf(rule: Rule): RuleDraft {
  const v = rule.value;
  if (typeof v === 'object' && v !== null && !Array.isArray(v))
    return 'years_before' in v
      ? { attribute: rule.attribute, op: rule.op, value: String(v.years_before), when: 'years_before' }
      : { attribute: rule.attribute, op: rule.op, value: String(v.days_before), when: 'days_before' };
  return { attribute: rule.attribute, op: rule.op, value: Array.isArray(v) ? v.join(', ') : String(v), when: 'day' };
}

/** A new row: the first attribute and its first condition. */
function newDraft(defs: readonly AttributeDef[]): RuleDraft {
  const def = defs[0];
  return {
    attribute: def?.key ?? '',
    op: def ? OPS_BY_TYPE[def.type][0]! : 'equals',
    value: def?.type === 'boolean' ? 'true' : '',
    when: 'day',
  };
}

/** A row as the rule it says, or what is missing (a catalogue key and its values). */
export function ruleOfDraft(
  d: RuleDraft,
  defs: readonly AttributeDef[],
): { rule: Rule; problem?: undefined } | { rule?: undefined; problem: { key: MessageKey; values?: Record<string, string | number> } } {
  const def = defs.find((x) => x.key === d.attribute);
  if (!d.attribute) return { problem: { key: 'rules.problem.attribute' } };
  if (!def) return { problem: { key: 'rules.problem.unknown', values: { key: d.attribute } } };
  const op: RuleOp = OPS_BY_TYPE[def.type].includes(d.op) ? d.op : OPS_BY_TYPE[def.type][0]!;
  const raw = d.value.trim();
  const rule = (value: Rule['value']) => ({ rule: { attribute: def.key, op, value } });
  switch (def.type) {
    case 'number':
      return raw !== '' && Number.isFinite(Number(raw)) ? rule(Number(raw)) : { problem: { key: 'rules.problem.number' } };
    case 'boolean':
      return rule(raw === 'true');
    case 'text':
      if (op === 'one_of') {
        const list = raw
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
        return list.length > 0 ? rule(list) : { problem: { key: 'rules.problem.list' } };
      }
      return raw !== '' ? rule(raw) : { problem: { key: 'rules.problem.text' } };
    case 'date':
      if (d.when === 'day') return isDateText(raw) ? rule(raw) : { problem: { key: 'rules.problem.date' } };
      if (!/^\d+$/.test(raw) || Number(raw) > MAX_BACK[d.when])
        return { problem: { key: 'rules.problem.count', values: { max: MAX_BACK[d.when] } } };
      return rule(d.when === 'years_before' ? { years_before: Number(raw) } : { days_before: Number(raw) });
  }
}

/** Every row as a rule, or each row's problem in words (undefined where the row is fine). */
export function rulesOfDrafts(
  drafts: readonly RuleDraft[],
  defs: readonly AttributeDef[],
): { rules: Rule[]; problems: (string | undefined)[]; ok: boolean } {
  const out = drafts.map((d) => ruleOfDraft(d, defs));
  const problems = out.map((o) => (o.problem ? translate(o.problem.key, o.problem.values) : undefined));
  return { rules: out.flatMap((o) => (o.rule ? [o.rule] : [])), problems, ok: problems.every((p) => p === undefined) };
}

/**
 * The rows to send, as `rulesOfDrafts`, with the attributes perhaps not read (undefined: loading or
 * failed): rows as they were stored are sent as stored, changed ones wait for the attributes.
 */
export function checkRuleRows(
  drafts: readonly RuleDraft[],
  defs: readonly AttributeDef[] | undefined,
  stored: readonly Rule[],
): { rules: Rule[]; problems: (string | undefined)[]; ok: boolean; listProblem?: string } {
  if (defs) return rulesOfDrafts(drafts, defs);
  if (JSON.stringify(drafts) === JSON.stringify(stored.map(draftOf))) return { rules: [...stored], problems: [], ok: true };
  return { rules: [], problems: [], ok: false, listProblem: translate('attributes.loadError') };
}

const OP_WORDS: Record<RuleOp, MessageKey> = {
  at_least: 'rules.op.at_least',
  at_most: 'rules.op.at_most',
  equals: 'rules.op.equals',
  not_equals: 'rules.op.not_equals',
  one_of: 'rules.op.one_of',
  on_or_before: 'rules.op.on_or_before',
  on_or_after: 'rules.op.on_or_after',
};
const SENTENCES: Record<RuleOp, MessageKey> = {
  at_least: 'rules.words.at_least',
  at_most: 'rules.words.at_most',
  equals: 'rules.words.equals',
  not_equals: 'rules.words.not_equals',
  one_of: 'rules.words.one_of',
  on_or_before: 'rules.words.on_or_before',
  on_or_after: 'rules.words.on_or_after',
};
const WHEN_WORDS: Record<When, MessageKey> = {
  day: 'rules.when.day',
  years_before: 'rules.when.years_before',
  days_before: 'rules.when.days_before',
};

/** "Shares (KSh) at least 20000", "Joined at least 1 year before voting opens", "Subscription paid: yes", in the active language. */
export function ruleWords(rule: Rule, defs: readonly AttributeDef[]): string {
  const label = defs.find((d) => d.key === rule.attribute)?.label ?? rule.attribute;
  const v = rule.value;
  if (typeof v === 'boolean')
    // A member without a value meets neither, so "is not yes" is "no".
    return translate('rules.words.boolean', { label, value: String(rule.op === 'not_equals' ? !v : v) });
  if (Array.isArray(v)) return translate(SENTENCES[rule.op], { label, value: v.join(', ') });
  if (typeof v === 'object' && v !== null)
    return 'years_before' in v
      ? translate('rules.words.yearsBefore', { label, op: rule.op, n: v.years_before })
      : translate('rules.words.daysBefore', { label, op: rule.op, n: v.days_before });
  if (typeof v === 'string' && isDateText(v)) {
    const day = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${v}T00:00:00Z`));
    return translate(SENTENCES[rule.op], { label, value: day });
  }
  return translate(SENTENCES[rule.op], { label, value: String(v) });
}

/** Each control of a row: its label and its id's suffix. */
const FIELD = {
  attribute: { label: 'rules.attribute', control: 'attribute' },
  op: { label: 'rules.op', control: 'op' },
  value: { label: 'rules.value', control: 'value' },
  when: { label: 'rules.whenLabel', control: 'when' },
} as const satisfies Record<string, { label: MessageKey; control: string }>;

type Props = {
  /** prefix of the fields' ids (the form's useId) */
  id: string;
  legend: string;
  hint?: string;
  /** the organisation's attributes */
  defs: readonly AttributeDef[];
  drafts: RuleDraft[];
  onChange: (drafts: RuleDraft[]) => void;
  /** each row's message (the form's, after a submit), by index */
  errors?: readonly (string | undefined)[];
  /** the list's own message (the server's, at the rules field) */
  error?: string;
};

/** The rules of one list: a row per rule with its words beside it, Add a rule, Remove rule n. */
export function RuleEditor({ id, legend, hint, defs, drafts, onChange, errors = [], error }: Props) {
  const { t } = useT();
  const set = (i: number, change: Partial<RuleDraft>) => onChange(drafts.map((d, j) => (j === i ? { ...d, ...change } : d)));
  /** Another attribute: a condition it takes, and a fresh value. */
  const setAttribute = (i: number, key: string) => {
    const def = defs.find((d) => d.key === key);
    const ops = def ? OPS_BY_TYPE[def.type] : RULE_OPS;
    set(i, {
      attribute: key,
      op: ops.includes(drafts[i]!.op) ? drafts[i]!.op : ops[0]!,
      value: def?.type === 'boolean' ? 'true' : '',
      when: 'day',
    });
  };
  return (
    <fieldset className="grid gap-2" aria-describedby={hint ? `${id}-rules-hint` : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      {hint && (
        <p id={`${id}-rules-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {drafts.length === 0 && <p className="text-sm text-muted-foreground">{t('rules.none')}</p>}
      <ol className="grid gap-3" aria-label={legend}>
        {drafts.map((d, i) => {
          const def = defs.find((x) => x.key === d.attribute);
          const ops = def ? OPS_BY_TYPE[def.type] : [d.op];
          const n = i + 1;
          const row = `${id}-rule-${i}`;
          const parsed = ruleOfDraft(d, defs);
          const field = ({ label, control }: { label: MessageKey; control: string }) => (
            <Label htmlFor={`${row}-${control}`} className="text-xs font-normal text-muted-foreground">
              <span className="sr-only">{t('rules.number', { n })} </span>
              {t(label)}
            </Label>
          );
          return (
            <li key={i} className="grid gap-2 rounded-md border border-border p-2">
              <div className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
                <div className="grid gap-1">
                  {field(FIELD.attribute)}
                  <select
                    id={`${row}-attribute`}
                    className={selectClass}
                    value={d.attribute}
                    onChange={(e) => setAttribute(i, e.target.value)}
                  >
                    {!def && <option value={d.attribute}>{d.attribute ? t('rules.unknownAttribute', { key: d.attribute }) : '—'}</option>}
                    {defs.map((x) => (
                      <option key={x.key} value={x.key}>
                        {x.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="grid gap-1">
                  {field(FIELD.op)}
                  <select id={`${row}-op`} className={selectClass} value={d.op} onChange={(e) => set(i, { op: e.target.value as RuleOp })}>
                    {ops.map((op) => (
                      <option key={op} value={op}>
                        {t(OP_WORDS[op])}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="grid gap-1">
                  {field(FIELD.value)}
                  <RuleValue id={`${row}-value`} draft={d} type={def?.type} invalid={Boolean(errors[i])} onChange={(c) => set(i, c)} />
                </div>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={t('rules.remove', { n })}
                  onClick={() => onChange(drafts.filter((_, j) => j !== i))}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
              {def?.type === 'date' && (
                <div className="grid gap-1 sm:max-w-xs">
                  {field(FIELD.when)}
                  <select
                    id={`${row}-when`}
                    className={selectClass}
                    value={d.when}
                    onChange={(e) => set(i, { when: e.target.value as When, value: '' })}
                  >
                    {WHEN.map((w) => (
                      <option key={w} value={w}>
                        {t(WHEN_WORDS[w])}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {def?.type === 'text' && d.op === 'one_of' && <p className="text-xs text-muted-foreground">{t('rules.oneOfHint')}</p>}
              <p className="text-sm" data-testid="rule-words" aria-live="polite">
                {parsed.rule ? ruleWords(parsed.rule, defs) : ''}
              </p>
              <FieldError id={`${row}-error`} message={errors[i]} />
            </li>
          );
        })}
      </ol>
      {defs.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('rules.noAttributes')}</p>
      ) : (
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="w-fit"
          disabled={drafts.length >= MAX_RULES}
          onClick={() => onChange([...drafts, newDraft(defs)])}
        >
          <Plus aria-hidden="true" />
          {t('rules.add')}
        </Button>
      )}
      <FieldError id={`${id}-rules-error`} message={error} />
    </fieldset>
  );
}

/** The value's control for the attribute's type: a number, yes or no, text, a day, or a count back. */
function RuleValue({
  id,
  draft,
  type,
  invalid,
  onChange,
}: {
  id: string;
  draft: RuleDraft;
  type: AttributeDef['type'] | undefined;
  invalid: boolean;
  onChange: (change: Partial<RuleDraft>) => void;
}) {
  const { t } = useT();
  const aria = { 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? `${id.replace(/-value$/, '')}-error` : undefined };
  if (type === 'boolean')
    return (
      <select id={id} className={selectClass} value={draft.value} onChange={(e) => onChange({ value: e.target.value })} {...aria}>
        <option value="true">{t('memberAttributes.yes')}</option>
        <option value="false">{t('memberAttributes.no')}</option>
      </select>
    );
  const input =
    type === 'number'
      ? ({ type: 'number', step: 'any' } as const)
      : type === 'date' && draft.when === 'day'
        ? ({ type: 'date' } as const)
        : type === 'date'
          ? ({ type: 'number', min: 0, step: 1, inputMode: 'numeric' } as const)
          : ({ type: 'text', maxLength: draft.op === 'one_of' ? 2000 : 200 } as const);
  return (
    <Input id={id} autoComplete="off" value={draft.value} onChange={(e) => onChange({ value: e.target.value })} {...input} {...aria} />
  );
}
