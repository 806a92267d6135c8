import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * What a message needs from the code: its arguments (with their kind: plain, number, plural,
 * select…) and its rich-text tags. Two languages of one key must need the same things, or a value
 * would go missing on the screen (docs/i18n.md "Adding a language").
 */
export function messageShape(message: string): string[] {
  const out = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument) out.add(`{${el.value}}`);
      else if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) out.add(`{${el.value}, ${TYPE[el.type]}}`);
      else if (el.type === TYPE.plural || el.type === TYPE.select) {
        out.add(`{${el.value}, ${el.type === TYPE.select ? 'select' : 'plural'}}`);
        for (const option of Object.values(el.options)) walk(option.value);
      } else if (el.type === TYPE.tag) {
        out.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return [...out].sort();
}

export type CatalogueProblem = { key: string; problem: string };

/**
 * Compares a language's catalogue with the English one: every English key present and not
 * empty, no key English lacks, every message valid ICU with the same arguments and tags.
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
    let shape: string[];
    try {
      shape = messageShape(message);
    } catch (err) {
      problems.push({ key, problem: `not valid ICU: ${(err as Error).message}` });
      continue;
    }
    const expected = messageShape(english);
    if (shape.join(' ') !== expected.join(' ')) {
      problems.push({ key, problem: `placeholders differ: ${shape.join(' ') || '(none)'} instead of ${expected.join(' ') || '(none)'}` });
    }
  }
  for (const key of Object.keys(other)) if (!(key in en)) problems.push({ key, problem: 'not in the English catalogue' });
  return problems;
}
