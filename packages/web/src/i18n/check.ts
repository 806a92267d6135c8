import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * What a message takes from the code: its arguments and its rich-text tags. `required` are the
 * ones every language must use: the printed arguments (`{name}`), the select arguments (their
 * cases carry meaning) and the tags; an argument that only chooses a plural form may be left out
 * by a language whose nouns do not change with the number (Kiswahili: "kura 1", "kura 3").
 */
export function messageShape(message: string): { required: string[]; all: string[] } {
  const required = new Set<string>();
  const all = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) {
        required.add(`{${el.value}}`);
        all.add(`{${el.value}}`);
      } else if (el.type === TYPE.plural || el.type === TYPE.select) {
        if (el.type === TYPE.select) required.add(`{${el.value}}`);
        all.add(`{${el.value}}`);
        for (const option of Object.values(el.options)) walk(option.value);
      } else if (el.type === TYPE.tag) {
        required.add(`<${el.value}>`);
        all.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return { required: [...required].sort(), all: [...all].sort() };
}

export type CatalogueProblem = { key: string; problem: string };

/**
 * Compares a language's catalogue with the English one: every English key present and not
 * empty, no key English lacks, every message valid ICU using the English one's arguments and tags
 * (and no other).
 */
export function catalogueProblems(en: Record<string, string>, other: Record<string, string>): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  for (const [key, english] of Object.entries(en)) {
    const message = other[key];
    if (message === undefined) {
      problems.push({ key, problem: 'missing' });
      continue;
    }
    if (!message.trim()) {
      problems.push({ key, problem: 'empty' });
      continue;
    }
    let shape: ReturnType<typeof messageShape>;
    try {
      shape = messageShape(message);
    } catch (err) {
      problems.push({ key, problem: `not valid ICU: ${(err as Error).message}` });
      continue;
    }
    const expected = messageShape(english);
    const missing = expected.required.filter((p) => !shape.all.includes(p));
    const unknown = shape.all.filter((p) => !expected.all.includes(p));
    if (missing.length > 0) problems.push({ key, problem: `placeholders missing: ${missing.join(' ')}` });
    if (unknown.length > 0) problems.push({ key, problem: `placeholders English lacks: ${unknown.join(' ')}` });
  }
  for (const key of Object.keys(other)) if (!(key in en)) problems.push({ key, problem: 'not in the English catalogue' });
  return problems;
}
