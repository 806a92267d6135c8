import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * Finds which catalogue message an already formatted text is, and the values it was formatted
 * with: each ICU message becomes an anchored regular expression (a placeholder captures its text,
 * `#` a number, each plural or select option an alternative). Messages without placeholders are
 * looked up exactly; templates are tried most specific (most literal text) first.
 */

type Role = { kind: 'value'; name: string } | { kind: 'number'; name: string } | { kind: 'option'; name: string; value: string | number };

type Pattern<Id> = { id: Id; regex: RegExp; roles: Role[]; literal: number };

export type TextMatcher<Id> = { match(text: string): { id: Id; values: Record<string, string | number> } | undefined };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The placeholders of a message (names, with the kind of each), for the catalogue tests. */
export function placeholdersOf(message: string): string[] {
  const out = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) out.add(el.value);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        out.add(el.value);
        for (const option of Object.values(el.options)) walk(option.value);
      }
      if (el.type === TYPE.tag) walk(el.children);
    }
  };
  walk(parse(message));
  return [...out].sort();
}

function compile<Id>(id: Id, message: string): Pattern<Id> {
  const roles: Role[] = [];
  let literal = 0;
  const build = (elements: MessageFormatElement[], pluralOf?: string): string =>
    elements
      .map((el) => {
        switch (el.type) {
          case TYPE.literal:
            literal += el.value.length;
            return escape(el.value);
          case TYPE.argument:
          case TYPE.number:
          case TYPE.date:
          case TYPE.time:
            roles.push({ kind: 'value', name: el.value });
            return '([\\s\\S]+?)';
          case TYPE.pound:
            roles.push({ kind: 'number', name: pluralOf ?? '' });
            return '(-?\\d+(?:[.,]\\d+)*)';
          case TYPE.plural:
          case TYPE.select: {
            const alternatives = Object.entries(el.options).map(([key, option]) => {
              const exact = el.type === TYPE.plural && key.startsWith('=') ? Number(key.slice(1)) : undefined;
              if (el.type === TYPE.select || exact !== undefined) {
                roles.push({ kind: 'option', name: el.value, value: exact ?? key });
                return `(${build(option.value, el.value)})`;
              }
              return build(option.value, el.value);
            });
            return `(?:${alternatives.join('|')})`;
          }
          case TYPE.tag:
            return build(el.children, pluralOf);
        }
      })
      .join('');
  const source = build(parse(message));
  return { id, regex: new RegExp(`^${source}$`), roles, literal };
}

export function matcherFor<Id extends string>(catalogue: Record<Id, string>): TextMatcher<Id> {
  const exact = new Map<string, Id>();
  const patterns: Pattern<Id>[] = [];
  for (const [id, message] of Object.entries(catalogue) as [Id, string][]) {
    const pattern = compile(id, message);
    if (pattern.roles.length === 0) {
      // No placeholder: the text is the message with its ICU quoting undone.
      const text = parse(message)
        .map((el) => (el.type === TYPE.literal ? el.value : ''))
        .join('');
      if (!exact.has(text)) exact.set(text, id);
    } else patterns.push(pattern);
  }
  patterns.sort((a, b) => b.literal - a.literal);
  return {
    match(text) {
      const id = exact.get(text);
      if (id !== undefined) return { id, values: {} };
      for (const p of patterns) {
        const m = p.regex.exec(text);
        if (!m) continue;
        const values: Record<string, string | number> = {};
        p.roles.forEach((role, i) => {
          const captured = m[i + 1];
          if (captured === undefined || role.name in values) return;
          if (role.kind === 'value') values[role.name] = captured;
          else if (role.kind === 'number') values[role.name] = Number(captured.replace(/,/g, ''));
          else values[role.name] = role.value;
        });
        return { id: p.id, values };
      }
      return undefined;
    },
  };
}
