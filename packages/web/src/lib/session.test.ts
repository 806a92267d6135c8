import { describe, expect, it } from 'vitest';
import { clearSession, takeWelcome } from './session';

describe('the welcome toast once per signed-in tab', () => {
  it('welcomes the first shell only, again after sign-out', () => {
    expect(takeWelcome()).toBe(true);
    expect(takeWelcome()).toBe(false);
    expect(takeWelcome()).toBe(false);
    clearSession();
    expect(takeWelcome()).toBe(true);
  });
});

describe('a ballot draft goes with the sign-out (issue 37)', () => {
  it('clears every kept ballot of the tab, and nothing else of sessionStorage is needed for it', async () => {
    const { writeBallotDraft, readBallotDraft } = await import('./ballot-draft');
    writeBallotDraft('5', { 31: [311], 32: [322, 321] });
    writeBallotDraft('6', { 40: [401] });
    expect(readBallotDraft('5')).toEqual({ 31: [311], 32: [322, 321] });
    clearSession();
    expect(readBallotDraft('5')).toEqual({});
    expect(readBallotDraft('6')).toEqual({});
  });

  it('reads a damaged draft as none', async () => {
    const { readBallotDraft, BALLOT_DRAFT_PREFIX } = await import('./ballot-draft');
    window.sessionStorage.setItem(`${BALLOT_DRAFT_PREFIX}7`, '{"1":["x"],"2":[3]');
    expect(readBallotDraft('7')).toEqual({});
    window.sessionStorage.setItem(`${BALLOT_DRAFT_PREFIX}7`, '{"1":["x"],"2":[3]}');
    expect(readBallotDraft('7')).toEqual({ 2: [3] });
  });
});
