/**
 * A ballot half filled, kept in this tab (docs/screens.md "Ballot and results"): position id → the
 * chosen candidate ids (in the voter's order for a ranked position). sessionStorage only, so it
 * goes with the tab; a vote, Reset, Cancel or sign-out (session.ts) removes it. It holds choices
 * not yet cast, on the voter's own device, as the open form does.
 */
export const BALLOT_DRAFT_PREFIX = 'kura.ballot-draft.';

export type BallotDraft = Record<number, number[]>;

export function readBallotDraft(key: string): BallotDraft {
  try {
    const raw = window.sessionStorage.getItem(BALLOT_DRAFT_PREFIX + key);
    if (!raw) return {};
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return {};
    const out: BallotDraft = {};
    for (const [id, list] of Object.entries(parsed as Record<string, unknown>)) {
      if (Array.isArray(list) && list.every((x) => Number.isInteger(x))) out[Number(id)] = list as number[];
    }
    return out;
  } catch {
    return {};
  }
}

export function writeBallotDraft(key: string, draft: BallotDraft) {
  try {
    const kept = Object.fromEntries(Object.entries(draft).filter(([, list]) => list.length > 0));
    if (Object.keys(kept).length === 0) window.sessionStorage.removeItem(BALLOT_DRAFT_PREFIX + key);
    else window.sessionStorage.setItem(BALLOT_DRAFT_PREFIX + key, JSON.stringify(kept));
  } catch {
    // no sessionStorage: the ballot is kept while the page is
  }
}

export function clearBallotDraft(key: string) {
  try {
    window.sessionStorage.removeItem(BALLOT_DRAFT_PREFIX + key);
  } catch {
    // nothing stored
  }
}

/** Sign-out: every ballot draft of this tab goes. */
export function clearBallotDrafts() {
  try {
    const storage = window.sessionStorage;
    const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter(
      (k): k is string => k !== null && k.startsWith(BALLOT_DRAFT_PREFIX),
    );
    for (const k of keys) storage.removeItem(k);
  } catch {
    // nothing stored
  }
}
