import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import {
  chooseLanguage,
  getLocale,
  intlLocale,
  resetLocale,
  setLocale,
  setMemberLanguage,
  setOrganisationDefault,
  t,
  tReceived,
  optionName,
  catalogueOf,
} from './index';
import { pseudoMessage, pseudoText } from './pseudo';
import { LANGUAGE_STORAGE_KEY } from './storage';
import { PREFERENCE_KEYS, clearSession, storeSession } from '@/lib/session';
import { formatInZone } from '@/lib/zoned-time';
import { resultText } from '@/lib/format';
import { motionRule } from '@/lib/motion-rule';
import { choiceText } from '@/components/ballot/ballot-form';
import { MOTION_OPTIONS, said } from '@kura/contract';

describe('which language the app speaks (docs/api.md "Languages")', () => {
  it('member, then this device, then the browser when shipped, then the organisation, else English', () => {
    const all = { member: 'sw', device: 'en', browser: ['en-GB'], organisation: 'en' };
    expect(chooseLanguage(all)).toEqual({ locale: 'sw', from: 'member' });
    expect(chooseLanguage({ ...all, member: null, device: 'sw' })).toEqual({ locale: 'sw', from: 'device' });
    expect(chooseLanguage({ browser: ['fr-FR', 'sw-KE', 'en'] })).toEqual({ locale: 'sw', from: 'browser' });
    expect(chooseLanguage({ browser: ['fr-FR', 'de'], organisation: 'sw' })).toEqual({ locale: 'sw', from: 'organisation' });
    expect(chooseLanguage({ member: 'xx', device: 'fr', browser: ['de'], organisation: 'zz' })).toEqual({ locale: 'en', from: 'fallback' });
  });

  it('a choice applies at once, sets <html lang>, is remembered on this device and outlives a sign-out', () => {
    setLocale('sw');
    expect(getLocale()).toBe('sw');
    expect(document.documentElement.lang).toBe('sw');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('sw');
    expect(PREFERENCE_KEYS).toContain(LANGUAGE_STORAGE_KEY);
    clearSession();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('sw');
    resetLocale();
    expect(getLocale()).toBe('sw');
    setLocale('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it("the member's language wins over the device; the organisation's default only fills in when nothing chose", () => {
    setLocale('en');
    setMemberLanguage('sw');
    expect(getLocale()).toBe('sw');
    resetLocale({});
    setOrganisationDefault('sw');
    expect(getLocale()).toBe('sw');
    resetLocale({ device: 'en' });
    setOrganisationDefault('sw');
    expect(getLocale()).toBe('en');
  });

  it('a session that carries the member’s language switches to it (ahead of the device’s choice)', () => {
    setLocale('en');
    storeSession({ bearer_token: 't', hash: 'h', name: 'Jane', photo: null, balance: 0 }, 'member');
    expect(getLocale()).toBe('en');
    storeSession({ bearer_token: 't', hash: 'h', name: 'Jane', photo: null, balance: 0, language: 'sw' } as never, 'member');
    expect(getLocale()).toBe('sw');
  });

  it('formats messages, plurals and the contract’s messages (by code) in the active language', () => {
    expect(resultText(1, 4)).toBe('25.00% 1 vote');
    expect(resultText(0, 0)).toBe('0.00% 0 vote');
    expect(resultText(3, 4)).toBe('75.00% 3 votes');
    expect(tReceived(said('field.enterMemberNumber'))).toBe('Enter your member number');
    expect(tReceived(said('field.oneOf', { field: 'role', options: ['proposer', 'seconder'] }))).toBe(
      'The role must be proposer or seconder',
    );
    setLocale('sw');
    expect(resultText(3, 4)).toBe('75.00% kura 3');
    expect(motionRule('two_thirds', 50)).toBe(
      'Hoja inapita ikiwa angalau theluthi mbili ya kura za Ndiyo na Hapana ni Ndiyo, na angalau 50% ya wanachama kwenye daftari wakaipigia kura.',
    );
    expect(tReceived(said('field.enterMemberNumber'))).toBe('Weka nambari yako ya mwanachama');
    expect(tReceived(said('field.oneOf', { field: 'role', options: ['proposer', 'seconder'] }))).toBe(
      'Sehemu ya jukumu lazima iwe proposer au seconder',
    );
    // The contract's English text is not looked up: only its code is.
    expect(tReceived('Enter your member number')).toBe('Enter your member number');
    expect(tReceived('Jane Wanjiku')).toBe('Jane Wanjiku');
    expect(t('ballot.motionAbstain')).toBe('Najizuia');
  });

  it('never translates a text by matching its English: only a contract code is said', async () => {
    setLocale('sw');
    // The web's own words and the server's answers are shown as they arrived, even word for word in en.json.
    expect(tReceived('Failed to add the branch')).toBe('Failed to add the branch');
    expect(tReceived(en['toast.errorOccurred'])).toBe('An error occurred');
    const kiswahili = await catalogueOf('sw');
    for (const [key, english] of Object.entries(en)) if (kiswahili[key] !== english) expect(tReceived(english), key).toBe(english);
    // A contract code is said in the language.
    expect(tReceived(said('field.enterMemberNumber'))).toBe('Weka nambari yako ya mwanachama');
  });

  it('names a motion’s options (the contract’s MOTION_OPTIONS) by their keys; any other name unchanged', () => {
    expect(MOTION_OPTIONS.map(optionName)).toEqual(['Yes', 'No', 'Abstain']);
    setLocale('sw');
    expect(MOTION_OPTIONS.map(optionName)).toEqual(['Ndiyo', 'Hapana', 'Najizuia']);
    expect(optionName('Jane Wanjiku')).toBe('Jane Wanjiku');
    expect(optionName('yes')).toBe('yes');
    expect(optionName('toString')).toBe('toString');
    // The ballot's confirmation: a motion's choice in Kiswahili, a candidate's name as it is.
    const choice = { id: 1, photo: null, positionId: 8, position: 'Amend rule 12', seats: 1 };
    expect(choiceText([{ ...choice, name: 'No', method: 'motion' }])).toBe('Hapana');
    expect(choiceText([{ ...choice, name: 'No', method: 'plurality' }])).toBe('No');
  });

  it('dates go through Intl in the active language, on the organisation’s clock', () => {
    const iso = '2026-05-03T05:00:00Z';
    expect(intlLocale()).toMatch(/^en/);
    const english = formatInZone(iso, 'Africa/Nairobi');
    expect(english).toMatch(/May/);
    expect(english).toMatch(/08:00/);
    setLocale('sw');
    expect(intlLocale()).toBe('sw');
    const swahili = formatInZone(iso, 'Africa/Nairobi');
    expect(swahili).toMatch(/Mei/);
    expect(swahili).toMatch(/08:00/);
  });
});

describe('pseudo-locale en-XA (docs/i18n.md "Pseudo-locale")', () => {
  it('accents every letter and makes each message at least 30% longer', () => {
    expect(pseudoText('Rank as many candidates')).not.toMatch(/[a-z]/i);
    for (const message of ['Vote', 'Sign in', 'Rank as many candidates as you wish: 1 is your first choice.']) {
      const pseudo = pseudoMessage(message);
      expect(pseudo).toMatch(/^\[.*\]$/);
      expect(pseudo.length).toBeGreaterThanOrEqual(Math.ceil(message.length * 1.3));
    }
    const catalogue = Object.values(en).join(' ');
    const pseudoAll = Object.values(en).map(pseudoMessage).join(' ');
    expect(pseudoAll.length / catalogue.length).toBeGreaterThan(1.25);
  });

  it('keeps placeholders, plurals and tags, so the messages still format', () => {
    expect(pseudoMessage('Choose up to {seats} ({chosen} chosen)')).toMatch(/^\[Çĥóóšéé úþ ţó \{seats\} \(\{chosen\} çĥ.*\) ~+\]$/);
    expect(pseudoMessage('See <link>receipts</link>')).toMatch(/<link>ŕéçé.*<\/link>/);
    setLocale('en-XA');
    expect(getLocale()).toBe('en-XA');
    expect(document.documentElement.lang).toBe('en-XA');
    expect(t('ballot.upTo', { seats: 3, chosen: 1 })).toMatch(/^\[.* 3 \(1 .*\]$/);
    expect(resultText(2, 4)).toMatch(/^\[50\.00% 2 ṽóţéš/);
    expect(resultText(1, 4)).toMatch(/^\[25\.00% 1 ṽóţé[^š]/);
  });
});
