import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import {
  ATTRIBUTE_FORMAT,
  CONTRACT_MESSAGES,
  ChangePinBody,
  ReportIssueBody,
  IDENTIFIER_FORMAT_MESSAGE,
  ReceiptParams,
  SHIPPED_LANGUAGES,
  SignPassBody,
  SignupBody,
  VerifyCodeBody,
  VerifyPhoneBody,
  VerifyTokenBody,
  VoteBody,
  DetailsBody,
  nameCharactersMessage,
} from '@kura/contract';
import { ZodError, type z } from 'zod';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, languageFromHeader, localiseErrorBody, memberLanguage, t, tSaid, type MessageId, type Said } from '.';
import serverEn from './locales/en.json';
import { fieldErrors } from '../http/error-handler';
import { CODE_DEAD, CODE_EXHAUSTED, CODE_WRONG, RESEND_TOO_SOON } from '../auth/one-time-codes';
import { TOO_MANY_FAILURES, TRY_AGAIN_SOON } from '../auth/account-limits';
import { TOO_MANY_FROM_ADDRESS } from '../auth/rate-limits';
import { SIGN_IN_EXPIRED } from '../auth/pending';
import { GOOGLE_EMAIL_MISMATCH, GOOGLE_EMAIL_UNVERIFIED, GOOGLE_INVALID, GOOGLE_NOT_CONFIGURED, GOOGLE_TOKEN_USED } from '../auth/google';
import { AppError, ERROR_STATUS, fromContract } from '../errors';

const en = CATALOGUES.en;

/** The placeholders of a message (names, with the kind of each). */
function placeholdersOf(message: string): string[] {
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
const ids = Object.keys(en) as MessageId[];

/** Values that exercise every branch of a message: each plural/select option once. */
function sampleValues(message: string): Record<string, string | number>[] {
  const args = new Map<string, (string | number)[]>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument || el.type === TYPE.number) args.set(el.value, args.get(el.value) ?? [`${el.value} Xy`]);
      if (el.type === TYPE.plural) args.set(el.value, [1, 2, 12]);
      if (el.type === TYPE.select) args.set(el.value, Object.keys(el.options));
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const o of Object.values(el.options)) walk(o.value);
    }
  };
  walk(parse(message));
  const runs = Math.max(1, ...[...args.values()].map((v) => v.length));
  return Array.from({ length: runs }, (_, i) => Object.fromEntries([...args].map(([k, v]) => [k, v[i % v.length]!])));
}

describe('the server catalogues', () => {
  it('hold the same keys in every shipped language', () => {
    for (const language of SHIPPED_LANGUAGES) expect(Object.keys(CATALOGUES[language]).sort(), language).toEqual([...ids].sort());
  });

  it('give every message the same ICU placeholders in every language, and parse', () => {
    for (const language of SHIPPED_LANGUAGES)
      for (const id of ids) expect(placeholdersOf(CATALOGUES[language][id]), `${language} ${id}`).toEqual(placeholdersOf(en[id]));
  });

  it('format every message in every language with values of every kind', () => {
    for (const language of SHIPPED_LANGUAGES)
      for (const id of ids)
        for (const values of sampleValues(en[id])) expect(t(language, id, values), `${language} ${id}`).not.toMatch(/^\s*$/);
  });

  it('hold none of the contract’s messages: the contract owns them in every language, merged in here', () => {
    const contractIds = Object.keys(CONTRACT_MESSAGES.en);
    expect(Object.keys(serverEn).filter((id) => contractIds.includes(id))).toEqual([]);
    for (const id of contractIds as MessageId[]) {
      expect(en[id]).toBe(CONTRACT_MESSAGES.en[id as keyof typeof CONTRACT_MESSAGES.en]);
      expect(CATALOGUES.sw[id]).toBe(CONTRACT_MESSAGES.sw[id as keyof typeof CONTRACT_MESSAGES.sw]);
    }
  });

  it("know the spec's English texts a voter meets, word for word, and say each in Kiswahili", () => {
    const idOf = new Map(ids.map((id) => [en[id], id]));
    const voterTexts = [
      CODE_WRONG,
      CODE_EXHAUSTED,
      CODE_DEAD,
      RESEND_TOO_SOON,
      TOO_MANY_FAILURES,
      TRY_AGAIN_SOON,
      TOO_MANY_FROM_ADDRESS,
      SIGN_IN_EXPIRED,
      GOOGLE_EMAIL_MISMATCH,
      GOOGLE_EMAIL_UNVERIFIED,
      GOOGLE_INVALID,
      GOOGLE_NOT_CONFIGURED,
      GOOGLE_TOKEN_USED,
      'No account found, try signing up',
      'Such an account already exists, try signing in or use a different voter id',
      'No member matches this voter ID and phone number',
      'Set up an authenticator app first: sign in with an SMS code, then scan the QR code',
      'You can only set up an authenticator for your own account',
      'Choose a pin other than the default pin',
      'Incorrect pin',
      'Scan the QR code with your authenticator app first',
      'The token is incorrect or has expired, please try again',
      'Could not send the SMS code, please try again',
      'No member found with that member number or email. Check it and try again, or contact the secretariat.',
      IDENTIFIER_FORMAT_MESSAGE,
      nameCharactersMessage(),
      'Results are shown to election staff only until voting closes',
      'Results are published when voting closes',
      ...(Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[]).map((code) => new AppError(code).message),
      'Voting is currently disabled',
      'No such election',
      'You are not on the roll for this election',
      'No ranked position has this id',
      'The election is archived',
      'No ballot has this receipt code',
      'Too many receipt checks from this address, please try again later',
      'Too many lookups from this address, please try again later',
      'You have sent too many reports, please try again later',
      'Images must be JPEG, PNG or WebP files',
      'Each image must be at most 5 MB',
    ];
    // The contract's own (said by code) are read back; the server's are found as catalogue texts.
    const coded = voterTexts.map((text) => fromContract(text)).filter((m): m is Said => typeof m !== 'string');
    const plain = voterTexts.filter((text) => typeof fromContract(text) === 'string');
    expect(plain.filter((text) => !idOf.has(text))).toEqual([]);
    for (const text of plain) expect(t('sw', idOf.get(text)!), text).not.toBe(text);
    expect(coded.length).toBe(2);
    for (const said of coded) expect(tSaid('sw', said)).not.toBe(tSaid('en', said));
    const votes: [Said, string][] = [
      [
        { id: 'vote.alreadyVotedFor', values: { positions: 'Chair National, Treasurer National' } },
        'You have already voted for Chair National, Treasurer National',
      ],
      [{ id: 'vote.tooMany', values: { seats: 3, position: 'Board National' } }, 'Choose at most 3 candidates for Board National'],
      [{ id: 'vote.tooMany', values: { seats: 1, position: 'Chair National' } }, 'Choose at most 1 candidate for Chair National'],
    ];
    for (const [said, english] of votes) {
      expect(tSaid('en', said)).toBe(english);
      expect(tSaid('sw', said)).not.toBe(english);
    }
  });

  it('say the level word of position titles in the language (issue 37): "Mwenyekiti Kitaifa", not "National"', () => {
    expect(tSaid('sw', { id: 'vote.alreadyVotedFor', values: { positions: 'Chair National, Treasurer National' } })).toBe(
      'Tayari umepiga kura kwa Chair Kitaifa, Treasurer Kitaifa',
    );
    expect(tSaid('sw', { id: 'vote.tooMany', values: { seats: 1, position: 'National Delegate Nairobi' } })).toBe(
      'Chagua mgombea mmoja tu kwa National Delegate Nairobi',
    );
    expect(tSaid('en', { id: 'vote.alreadyVotedFor', values: { positions: 'Chair National' } })).toBe(
      'You have already voted for Chair National',
    );
  });

  it("cover every validation message of the voter's requests (the contract's zod schemas)", () => {
    const junk: unknown[] = [
      undefined,
      null,
      {},
      [],
      7,
      'x',
      { unique_id: '', consent: false },
      { unique_id: 'ab', consent: 'yes' },
      { unique_id: 'not valid!', consent: true },
      { unique_id: '9'.repeat(151) },
      { token: '12a', pfNumber: '' },
      { token: '1234567', pfNumber: 'x'.repeat(51) },
      { token: 123456 },
      { pfNumber: '12', phone: '07', credential: '' },
      { pfNumber: 'abcd', phone: '07123456789', credential: 'x'.repeat(8193), name: 'x'.repeat(151), photo: 'x'.repeat(2049) },
      { pass: '', pfNumber: '1' },
      { pass: 'x'.repeat(101) },
      { current_pin: '', new_pin: '12' },
      { current_pin: 'x'.repeat(101), new_pin: '1234' },
      { candidates: {} },
      { candidates: 'x' },
      { candidates: { abc: 1 } },
      { candidates: { 1: 'x', 2: [], 3: [0], 4: -1, 5: 1.5, 99999999999: 1 } },
      { candidates: { 1: Array.from({ length: 51 }, (_, i) => i + 1) } },
      { candidates: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [i + 1, 1])) },
      { vvpat: '' },
      { vvpat: 'x'.repeat(65) },
      { member_no: '' },
      { member_no: 'x'.repeat(151) },
      { details: '' },
      { details: 'x'.repeat(5001) },
    ];
    const schemas: z.ZodTypeAny[] = [
      VerifyPhoneBody,
      VerifyCodeBody,
      SignupBody,
      SignPassBody,
      VerifyTokenBody,
      ChangePinBody,
      VoteBody,
      ReceiptParams,
      DetailsBody,
      ReportIssueBody,
    ];
    const said: Said[] = [];
    const uncoded: string[] = [];
    for (const schema of schemas)
      for (const input of junk) {
        const parsed = schema.safeParse(input);
        if (parsed.success) continue;
        for (const messages of Object.values(fieldErrors(parsed.error)))
          for (const m of messages)
            if (typeof m === 'string') uncoded.push(m);
            else said.push(m);
      }
    // Each said by code (the contract's `said`, or zod's own "Required" by its issue): none is left as text.
    expect(uncoded).toEqual([]);
    expect(new Set(said.map((m) => m.id)).size).toBeGreaterThan(15);
    const untranslated = said.filter((m) => tSaid('sw', m) === tSaid('en', m)).map((m) => tSaid('en', m));
    expect(untranslated).toEqual([]);
  });

  it('no field message is looked up by its text: one the catalogue never wrote stays as it is', () => {
    const zodOwn = new ZodError([{ code: 'custom', path: ['x'], message: 'Choose at most 1 candidate for Chair National' }]);
    const [message] = fieldErrors(zodOwn).x!;
    expect(message).toBe('Choose at most 1 candidate for Chair National');
    expect(localiseErrorBody({ message: 'Enter 6 digit secure OTP' }, 'sw')).toEqual({ message: 'Enter 6 digit secure OTP' });
  });
});

describe('languages', () => {
  it('reads Accept-Language: the best shipped language by q-value, else English', () => {
    expect(languageFromHeader(undefined)).toBe('en');
    expect(languageFromHeader('')).toBe('en');
    expect(languageFromHeader('sw')).toBe('sw');
    expect(languageFromHeader('sw-KE,sw;q=0.9,en;q=0.8')).toBe('sw');
    expect(languageFromHeader('SW-ke')).toBe('sw');
    expect(languageFromHeader('fr')).toBe('en');
    expect(languageFromHeader('fr-FR, sw;q=0.5')).toBe('sw');
    expect(languageFromHeader('en;q=0.4, sw;q=0.7')).toBe('sw');
    expect(languageFromHeader('sw;q=0, en')).toBe('en');
    expect(languageFromHeader('sw;q=0')).toBe('en');
    expect(languageFromHeader('*')).toBe('en');
    expect(languageFromHeader('en-GB,en;q=0.9,sw;q=0.8')).toBe('en');
    expect(languageFromHeader('garbage;;;q=abc, sw;q=0.1')).toBe('sw');
  });

  it('ignores an Accept-Language entry whose q is not a qvalue (RFC 9110 §12.4.2), never reading it as 1', () => {
    for (const q of ['-1', 'NaN', '2', '1.5', '1.0001', '0.5000', '.5', '1e0', 'Infinity', '', '0x1', '+1']) {
      expect(languageFromHeader(`en;q=${q}, sw;q=0.1`), `q=${q}`).toBe('sw');
      expect(languageFromHeader(`en;Q=${q}, sw;q=0.1`), `Q=${q}`).toBe('sw');
    }
    // Valid qvalues still rank: 1, 1.000, 0.999, and up to three decimals.
    expect(languageFromHeader('sw;q=0.999, en;q=1.000')).toBe('en');
    expect(languageFromHeader('en;q=0.998, sw;q=0.999')).toBe('sw');
    expect(languageFromHeader('en;q=0.5, sw;q=1')).toBe('sw');
    expect(languageFromHeader('en;q=0., sw;q=0.001')).toBe('sw');
  });

  it("a member's language is theirs when shipped, else the organisation's default (English)", () => {
    expect(memberLanguage({ language: 'sw' }, 'en')).toBe('sw');
    expect(memberLanguage({ language: null }, 'en')).toBe('en');
    expect(memberLanguage({ language: 'xx' }, 'en')).toBe('en');
    expect(memberLanguage(undefined, 'en')).toBe('en');
    expect(memberLanguage({ language: null }, 'sw')).toBe('sw');
    expect(memberLanguage({ language: 'en' }, 'sw')).toBe('en');
    expect(memberLanguage({ language: null }, 'xx')).toBe('en');
  });

  it('raises every refusal by code: no message written as text outside errors.ts (issue 38)', () => {
    // The source as written: `new AppError(code)` says its code's default by code, `AppError.say`
    // and `AppError.fieldsSaid` a catalogue id the compiler checks. A message written as English
    // text (`new AppError(code, '…')`, `AppError.validation(…)`) would stay English in every
    // language, so it is refused.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return sources(path);
        return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
      });
    const root = fileURLToPath(new URL('..', import.meta.url));
    const found = (pattern: RegExp) =>
      sources(root)
        .filter((file) => !file.endsWith(join('src', 'errors.ts')))
        .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => `${relative(root, file)}: ${m[0]}`));
    expect(found(/new AppError\(\s*'[A-Z_]+',\s*(?!undefined\b)[^)\s]/g)).toEqual([]);
    // Field messages go by code too: zod's arrive through `fieldErrors` (the contract's `said`, read back).
    expect(found(/AppError\.validation\(/g)).toEqual([]);
  });

  it("words an attribute's format as the contract does (the web's import help shows the contract's)", () => {
    for (const [type, format] of Object.entries(ATTRIBUTE_FORMAT))
      expect(t('en', 'field.attributeFormat', { label: 'Shares', format: type })).toBe(`The Shares must be ${format}`);
  });

  it('translates a refusal raised by code from its id, whatever its English text reads (no matching)', () => {
    const refusal = AppError.fieldsSaid({ 'candidates.3': [{ id: 'vote.tooMany', values: { seats: 2, position: 'Board National' } }] });
    expect(refusal.body).toEqual({
      message: 'Choose at most 2 candidates for Board National',
      errors: { 'candidates.3': ['Choose at most 2 candidates for Board National'] },
    });
    // The English text is not what is looked at: a body the matcher would not know still reads Kiswahili.
    const sw = localiseErrorBody({ message: 'not a catalogue text', errors: { 'candidates.3': ['nor this'] } }, 'sw', {
      message: refusal.said,
      errors: refusal.errorsSaid,
    });
    expect(sw).toEqual({
      message: 'Chagua wagombea wasiozidi 2 kwa Board Kitaifa',
      errors: { 'candidates.3': ['Chagua wagombea wasiozidi 2 kwa Board Kitaifa'] },
    });
    expect(AppError.say('CONFLICT', 'error.closed.candidates').said).toEqual({ id: 'error.closed.candidates' });
  });

  it('says a list value part by part in the language, joined in its words', () => {
    const said = {
      id: 'error.branchInUse' as const,
      values: {
        branch: 'Kitui',
        uses: {
          join: 'and' as const,
          list: [
            { id: 'error.branchUse.members' as const, values: { n: 2 } },
            { id: 'error.branchUse.positions' as const, values: { n: 1 } },
            { id: 'error.branchUse.electorates' as const, values: { n: 3 } },
          ],
        },
      },
    };
    expect(tSaid('en', said)).toBe("Kitui is used by 2 members, 1 position and 3 elections' electorates, so it cannot be deleted");
    expect(tSaid('sw', said)).toBe('Kitui inatumiwa na wanachama 2, nafasi 1 na wapiga kura wa chaguzi 3, kwa hivyo haiwezi kufutwa');
    expect(AppError.say('CONFLICT', said.id, said.values).said).toEqual(said);
  });

  it('translates the error envelope: message and field messages by code, never the keys nor issue', () => {
    const refusal = AppError.fields(fieldErrors(VerifyTokenBody.safeParse({ token: '12a', pfNumber: '1042' }).error!));
    const body = { ...refusal.body, issue: 'No such user exists' };
    expect(body).toEqual({
      message: 'Must be at least 6 characters long',
      issue: 'No such user exists',
      errors: { token: ['Must be at least 6 characters long', 'Should only contain digits'] },
    });
    expect(localiseErrorBody(body, 'sw', { message: refusal.said, errors: refusal.errorsSaid })).toEqual({
      message: 'Lazima iwe na angalau herufi 6',
      issue: 'No such user exists',
      errors: { token: ['Lazima iwe na angalau herufi 6', 'Weka tarakimu tu'] },
    });
    expect(localiseErrorBody(body, 'en')).toBe(body);
  });

  it('says a contract field message with its field named and its options joined in the language', () => {
    const said = fromContract(VoteBody.safeParse({ candidates: 'x' }).error!.issues[0]!.message) as Said;
    expect(tSaid('en', said)).toBe('The candidates field must be an object of position id to candidate id');
    expect(tSaid('sw', { id: 'field.isRequired', values: { field: 'password' } })).toBe('Sehemu ya nenosiri inahitajika');
    expect(tSaid('en', { id: 'field.oneOf', values: { field: 'role', options: ['proposer', 'seconder'] } })).toBe(
      'The role must be proposer or seconder',
    );
    expect(tSaid('sw', { id: 'field.oneOf', values: { field: 'role', options: ['proposer', 'seconder'] } })).toBe(
      'Sehemu ya jukumu lazima iwe proposer au seconder',
    );
  });
});
