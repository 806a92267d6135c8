import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import { catalogueLoaded, catalogueOf, loadCatalogue, SHIPPED_LANGUAGES } from './index';
import { catalogueProblems, messageShape } from './check';

describe('message catalogues (docs/i18n.md)', () => {
  it('English is valid ICU throughout', () => {
    for (const [key, message] of Object.entries(en)) expect(() => messageShape(message), key).not.toThrow();
  });

  it.each(SHIPPED_LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every English key, with the same placeholders and tags',
    async (language) => {
      expect(catalogueProblems(en, await catalogueOf(language))).toEqual([]);
    },
  );

  it('English and the pseudo-locale need no loading; a code that is not shipped loads nothing', async () => {
    expect(catalogueLoaded('en') && catalogueLoaded('en-XA')).toBe(true);
    await expect(loadCatalogue('xx')).resolves.toBeUndefined();
  });

  it('the check fails when a key is missing, empty, extra or its placeholders differ', () => {
    const english = {
      a: 'Choose up to {seats} ({chosen} chosen)',
      b: 'See <link>receipts</link>',
      c: 'Hello',
      d: '{percent} {number} {count, plural, one {vote} other {votes}}',
      f: 'Passes if {share, select, two_thirds {two thirds} other {half}} vote Yes',
    };
    const broken = {
      a: 'Chagua hadi {seats} {viti}',
      b: 'Tazama risiti',
      d: '{percent} kura {number}',
      e: 'ziada',
      f: 'Hoja inapita kwa kura za Ndiyo',
    };
    expect(catalogueProblems(english, broken)).toEqual([
      { key: 'a', problem: 'placeholders missing: {chosen}' },
      { key: 'a', problem: 'placeholders English lacks: {viti}' },
      { key: 'b', problem: 'placeholders missing: <link>' },
      { key: 'c', problem: 'missing' },
      // a plural-only argument may be left out (d); a select's may not (f)
      { key: 'f', problem: 'placeholders missing: {share}' },
      { key: 'e', problem: 'not in the English catalogue' },
    ]);
    expect(catalogueProblems({ a: 'x' }, { a: ' ' })).toEqual([{ key: 'a', problem: 'empty' }]);
    expect(catalogueProblems({ a: 'x {y}' }, { a: 'x {y' })[0]?.problem).toMatch(/^not valid ICU/);
  });
});

/** The app's source (tests and the catalogues aside), as text. */
const sources = Object.entries(import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }))
  .filter(([path]) => !/\.test\.tsx?$/.test(path) && !path.startsWith('../test/'))
  .map(([, text]) => text)
  .join('\n');

describe('every message is said somewhere', () => {
  it('each English key is named in the source, or its family is looked up by a computed key (`prefix.${…}`)', () => {
    // Since no text is translated by matching its English, a key nothing names is dead: delete it from every catalogue.
    const unused = Object.keys(en).filter((key) => {
      if (sources.includes(`'${key}'`) || sources.includes(`"${key}"`)) return false;
      const family = key.slice(0, key.lastIndexOf('.') + 1);
      return !sources.includes(`\`${family}\${`) && !sources.includes(`'${family}'`);
    });
    expect(unused).toEqual([]);
  });
});

describe('Kiswahili that says what the English says (issue of the first hour, item 6)', () => {
  it('the declaration’s quorum sentence counts the Abstain votes, named as the ballot names them, not those who did not vote', async () => {
    const sw = (await import('./locales/sw.json')).default as Record<string, string>;
    expect(en['declaration.quorum']).toContain('abstentions count towards the quorum');
    expect(sw['declaration.quorum']).toContain(sw['ballot.motionAbstain']);
    // "wasiopiga kura" is "those who did not vote": the opposite of what the English says.
    expect(sw['declaration.quorum']).not.toMatch(/wasiopiga/);
  });
});
