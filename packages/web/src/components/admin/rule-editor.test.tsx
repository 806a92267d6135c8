import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { AttributeDef, Rule } from '@kura/contract';
import { setLocale } from '@/i18n';
import { draftOf, RuleEditor, rulesOfDrafts, ruleWords, type RuleDraft } from './rule-editor';

afterEach(() => act(() => setLocale('en')));

const defs: AttributeDef[] = [
  { key: 'shares', label: 'Shares (KSh)', type: 'number' },
  { key: 'joined', label: 'Joined', type: 'date' },
  { key: 'paid', label: 'Subscription paid', type: 'boolean' },
  { key: 'county', label: 'County', type: 'text' },
];

describe('a rule in words (docs/api.md "The register")', () => {
  const rules: Rule[] = [
    { attribute: 'joined', op: 'on_or_before', value: { years_before: 1 } },
    { attribute: 'shares', op: 'at_least', value: 20000 },
    { attribute: 'paid', op: 'equals', value: true },
    { attribute: 'paid', op: 'not_equals', value: true },
    { attribute: 'county', op: 'one_of', value: ['Nairobi', 'Kiambu'] },
    { attribute: 'joined', op: 'on_or_after', value: { days_before: 30 } },
    { attribute: 'joined', op: 'on_or_before', value: '2025-03-01' },
  ];
  it('in English', () => {
    expect(rules.map((r) => ruleWords(r, defs))).toEqual([
      'Joined at least 1 year before voting opens',
      'Shares (KSh) at least 20000',
      'Subscription paid: yes',
      'Subscription paid: no',
      'County is one of Nairobi, Kiambu',
      'Joined at most 30 days before voting opens',
      'Joined on or before March 1, 2025',
    ]);
  });
  it('in Kiswahili', () => {
    setLocale('sw');
    expect(rules.slice(0, 6).map((r) => ruleWords(r, defs))).toEqual([
      'Joined angalau mwaka 1 kabla ya upigaji kura kufunguliwa',
      'Shares (KSh) angalau 20000',
      'Subscription paid: ndiyo',
      'Subscription paid: hapana',
      'County ni mojawapo ya Nairobi, Kiambu',
      'Joined si zaidi ya siku 30 kabla ya upigaji kura kufunguliwa',
    ]);
    expect(ruleWords(rules[6]!, defs)).toMatch(/^Joined tarehe .*2025 au kabla yake$/);
  });
  it('a stored rule makes the row that gives it back', () => {
    expect(rulesOfDrafts(rules.map(draftOf), defs)).toEqual({ rules, problems: rules.map(() => undefined), ok: true });
  });
});

function Editor({ initial = [] }: { initial?: RuleDraft[] }) {
  const [drafts, setDrafts] = useState<RuleDraft[]>(initial);
  const checked = rulesOfDrafts(drafts, defs);
  return (
    <>
      <RuleEditor id="r" legend="Rules every voter must meet" defs={defs} drafts={drafts} onChange={setDrafts} errors={checked.problems} />
      <output data-testid="rules">{JSON.stringify(checked.rules)}</output>
    </>
  );
}
const sent = () => JSON.parse(screen.getByTestId('rules').textContent!) as Rule[];

describe('RuleEditor', () => {
  it('adds a rule, offers the conditions of its attribute type, and says it in words beside it', () => {
    render(<Editor />);
    expect(screen.getByText('No rules.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    // the first attribute, a number: a value is missing
    expect(screen.getByText('Enter a number')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rule 1 Attribute'), { target: { value: 'joined' } });
    const ops = within(screen.getByLabelText('Rule 1 Condition')).getAllByRole('option');
    expect(ops.map((o) => o.textContent)).toEqual(['on or before', 'on or after', 'is', 'is not']);
    fireEvent.change(screen.getByLabelText('Rule 1 Compared with'), { target: { value: 'years_before' } });
    fireEvent.change(screen.getByLabelText('Rule 1 Value'), { target: { value: '1' } });
    expect(screen.getByText('Joined at least 1 year before voting opens')).toBeTruthy();
    expect(sent()).toEqual([{ attribute: 'joined', op: 'on_or_before', value: { years_before: 1 } }]);

    fireEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    fireEvent.change(screen.getByLabelText('Rule 2 Attribute'), { target: { value: 'paid' } });
    expect(screen.getByText('Subscription paid: yes')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rule 2 Value'), { target: { value: 'false' } });
    expect(sent()[1]).toEqual({ attribute: 'paid', op: 'equals', value: false });

    fireEvent.click(screen.getByRole('button', { name: 'Remove rule 1' }));
    expect(sent()).toEqual([{ attribute: 'paid', op: 'equals', value: false }]);
    expect(screen.queryByText('Joined at least 1 year before voting opens')).toBeNull();
  });

  it('takes a list for "is one of" and says what is wrong with a row', () => {
    render(<Editor initial={[{ attribute: 'county', op: 'one_of', value: '', when: 'day' }]} />);
    expect(screen.getByText('Enter at least one value')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rule 1 Value'), { target: { value: 'Nairobi, Kiambu ,' } });
    expect(sent()).toEqual([{ attribute: 'county', op: 'one_of', value: ['Nairobi', 'Kiambu'] }]);
    expect(screen.getByText('County is one of Nairobi, Kiambu')).toBeTruthy();
  });

  it('keeps a rule on an attribute since removed, and says so', () => {
    render(<Editor initial={[{ attribute: 'loan_arrears', op: 'at_most', value: '60', when: 'day' }]} />);
    expect(screen.getByText('No attribute has the key loan_arrears')).toBeTruthy();
    expect((screen.getByLabelText('Rule 1 Attribute') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe(
      'loan_arrears (no longer an attribute)',
    );
  });

  it('speaks Kiswahili: its labels, conditions and the words beside a rule', () => {
    act(() => setLocale('sw'));
    render(<Editor initial={[{ attribute: 'joined', op: 'on_or_before', value: '2', when: 'years_before' }]} />);
    expect(screen.getByRole('button', { name: 'Ongeza kanuni' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ondoa kanuni 1' })).toBeTruthy();
    expect(within(screen.getByLabelText('Kanuni 1 Sharti')).getAllByRole('option')[0]!.textContent).toBe('siku hiyo au kabla yake');
    expect((screen.getByLabelText('Kanuni 1 Inalinganishwa na') as HTMLSelectElement).selectedOptions[0]!.textContent).toBe(
      'miaka kabla ya upigaji kura kufunguliwa',
    );
    expect(screen.getByText('Joined angalau miaka 2 kabla ya upigaji kura kufunguliwa')).toBeTruthy();
  });
});
