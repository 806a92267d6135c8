import { normalisePhone, type BallotGroup, type Language } from '@kura/contract';
import { beginAttempt, countersFor } from '../../auth/account-limits';
import { deliverCode } from '../../auth/code-delivery';
import { consumeCode, issueCode, spendCode } from '../../auth/one-time-codes';
import type { Core } from '../../core';
import type { Tx } from '../../db/client';
import { ussdVotes } from '../../db/schema';
import { readDefaultLanguage, readOrganisation, unarchivedElectionStates, votingStateOf } from '../../db/election-store';
import { markVerified, memberByNumber, memberPhone, memberPin } from '../../db/member-store';
import { positionsVotedBy } from '../../db/participation-store';
import type { BackgroundSender, Delivery } from '../../delivery';
import { AppError, refusalOf } from '../../errors';
import { defaultLanguage, memberLanguage, t, type MessageId } from '../../i18n';
import { recordActivity } from '../../lib/activity-log';
import { castVote, getBallot, type VoteReceipt } from '../ballots';
import { choicesOf, con, confirmScreen, end, menuScreen, optionName, positionScreen, positionView, screen, titleOf } from './screens';
import type { UssdSessionStore } from './session-store';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Voting by USSD (docs/operations.md "Voting by USSD with Africa's Talking"): the gateway posts
 * every input of a session so far as `text` (`*`-joined); each answer is a screen that waits for
 * input (`CON`) or ends the session (`END`). The state lives in the session store by `sessionId`,
 * every answer is kept by its `text`, so a repeated request is answered the same and casts once.
 * Sign-in is the member number, the dialling phone matched against the register in E.164, and a
 * one-time code by SMS; the vote goes through the ballots module's one vote path.
 */

/** A session lives at most this long without input. */
export const SESSION_IDLE_MS = 180_000;
/** How long one request may hold its session before another process may take it. */
const HOLD_MS = 30_000;
/** How long a repeated request waits for the first one's answer. */
const WAIT_STEP_MS = 50;
const WAIT_STEPS = 200;

export type UssdRequest = { sessionId: string; phoneNumber: string; text: string; ip: string };

type Step = 'member' | 'code' | 'election' | 'ballot' | 'confirm' | 'over';

/** A session's state, stored as JSON (session-store.ts). */
export type UssdSessionData = {
  language: Language;
  /** The dialling phone in E.164 (or as given when it is none): another phone never continues the session. */
  phone: string;
  /** Every answer given, by the request's `text`: a repeat is answered from here. */
  answers: Record<string, string>;
  step: Step;
  memberId?: number;
  challengeId?: number;
  /** The member set their own pin (`PUT psk/pin`): it may be entered instead of the code. */
  hasPin?: boolean;
  /** The member's name until the code is checked (the activity log names them). */
  name?: string;
  /** The open elections the member may vote in, when several (the menu). */
  elections?: { id: number; title: string }[];
  electionId?: number;
  /** The positions to vote on, in ballot order, fixed when the election was chosen. */
  positions?: number[];
  /**
   * Those positions as the screens need them (titles, options), read once when the election was
   * chosen (slimmed: no statements, photos or descriptions); the vote path checks the choices
   * against the ballot as it is then.
   */
  ballot?: BallotGroup[];
  index?: number;
  page?: number;
  /** The choices so far for the position on screen (several-choice positions). */
  current?: number[];
  /** The choices made, by position (an empty list: skipped). */
  picks?: Record<string, number[]>;
};

export type UssdDeps = {
  delivery: Delivery;
  notices: BackgroundSender;
  store: UssdSessionStore<UssdSessionData>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer to one gateway request (`CON …` or `END …`). */
export async function answerUssd(ctx: Core, deps: UssdDeps, request: UssdRequest): Promise<string> {
  const phone = normalisePhone(request.phoneNumber) ?? request.phoneNumber.trim();
  if (request.text === '') {
    const opened = await open(ctx, deps, request.sessionId, phone);
    if (opened !== undefined) return opened;
  }
  for (let attempt = 0; attempt < WAIT_STEPS; attempt++) {
    const now = ctx.now();
    // Read and held in one step; when that fails, read to tell a repeat, a held session and none apart.
    const taken = await deps.store.take(request.sessionId, now, new Date(now.getTime() + HOLD_MS));
    if (!taken) {
      const stored = await deps.store.read(request.sessionId);
      if (!stored) {
        // Forgotten meanwhile: a dial opens it again.
        if (request.text === '') {
          const opened = await open(ctx, deps, request.sessionId, phone);
          if (opened !== undefined) return opened;
          continue;
        }
        // A later input of a session this server does not know (forgotten, or never begun here).
        const language = defaultLanguage(await readDefaultLanguage(ctx.database.db));
        return end(screen(t(language, 'ussd.expired')));
      }
      // Only the phone that opened the session continues it.
      if (stored.data.phone !== phone) return end(screen(t(stored.data.language, 'ussd.error')));
      const known = stored.data.answers[request.text];
      if (known !== undefined) return known;
      if (stored.heldUntil && stored.heldUntil > now) await sleep(WAIT_STEP_MS);
      continue;
    }
    const { data, version } = taken;
    // Nothing to change: the session is let go as it was.
    const settled =
      data.phone !== phone
        ? end(screen(t(data.language, 'ussd.error')))
        : (data.answers[request.text] ??
          (now.getTime() - taken.touchedAt.getTime() > SESSION_IDLE_MS || data.step === 'over'
            ? end(screen(t(data.language, 'ussd.expired')))
            : undefined));
    if (settled !== undefined) {
      await deps.store.release(request.sessionId, version);
      return settled;
    }
    let answer: string;
    let next: UssdSessionData;
    try {
      ({ answer, data: next } = await advance(ctx, deps, data, request));
    } catch (error) {
      await deps.store.release(request.sessionId, version);
      ctx.logger.error({ err: error, sessionId: request.sessionId }, 'USSD request failed');
      return end(screen(t(data.language, 'ussd.error')));
    }
    next.answers = { ...next.answers, [request.text]: answer };
    // Over: only the last answer is kept (for a repeat), never the choices or the screens that showed them.
    if (next.step === 'over') next = { language: next.language, phone: next.phone, step: 'over', answers: { [request.text]: answer } };
    await deps.store.write(request.sessionId, version, next, ctx.now());
    return answer;
  }
  ctx.logger.warn({ sessionId: request.sessionId }, 'USSD request waited in vain for its session');
  return end(screen(t('en', 'ussd.error')));
}

/**
 * A dial (`text` empty): the session is created with its welcome screen as its first answer, in
 * one statement and never held (the screen changes nothing). Undefined when the session exists
 * already (a repeated dial): the caller answers it from the session.
 */
async function open(ctx: Core, deps: UssdDeps, sessionId: string, phone: string): Promise<string | undefined> {
  const now = ctx.now();
  const org = await readOrganisation(ctx.database.db);
  const language = defaultLanguage(org.defaultLanguage);
  const answer = con(screen(t(language, 'ussd.welcome', { org: (org.name || ctx.env.APP_NAME).slice(0, 60) })));
  // Abandoned sessions (and the choices they hold) go once well past the idle limit (SECURITY.md);
  // the store does it at most once a minute per process.
  await deps.store.purge(new Date(now.getTime() - 2 * SESSION_IDLE_MS));
  const data: UssdSessionData = { language, phone, answers: { '': answer }, step: 'member' };
  return (await deps.store.create(sessionId, data, now)) ? answer : undefined;
}

type Outcome = { answer: string; data: UssdSessionData };

/** The latest input of the session: the part of `text` after its last `*`. */
const inputOf = (text: string) => text.split('*').at(-1)!.trim();

function advance(ctx: Core, deps: UssdDeps, data: UssdSessionData, request: UssdRequest): Promise<Outcome> {
  const input = inputOf(request.text);
  switch (data.step) {
    case 'member':
      return signIn(ctx, deps, data, input, request.ip);
    case 'code':
      return checkCode(ctx, data, input, request.ip);
    case 'election':
      return pickElection(ctx, data, input);
    case 'ballot':
      return onPosition(ctx, data, input);
    case 'confirm':
      return onConfirm(ctx, deps, data, input, request.ip);
    default:
      return Promise.resolve(over(data, 'ussd.expired'));
  }
}

const over = (data: UssdSessionData, id: MessageId, values?: Record<string, string | number>): Outcome => ({
  answer: end(screen(t(data.language, id, values))),
  data: { ...data, step: 'over' },
});

const SIGN_IN = 'Voter sign-in: USSD';

/**
 * The member number: the member must exist and the dialling phone be their registered one (both
 * in E.164); either failure ends with the same screen. Then a code goes by SMS, after the answer.
 */
async function signIn(ctx: Core, deps: UssdDeps, data: UssdSessionData, memberNo: string, ip: string): Promise<Outcome> {
  const member = memberNo ? await memberByNumber(ctx.database.db, memberNo) : undefined;
  const registered = member ? normalisePhone(member.phone) : null;
  if (!member || registered === null || registered !== data.phone) {
    await recordActivity(ctx, {
      name: member?.name ?? memberNo.slice(0, 50),
      activity: SIGN_IN,
      userId: member?.id ?? null,
      userType: 'voter',
      ip,
      status: 'failed',
      data: member ? 'not the registered phone' : 'no such member',
    });
    return over(data, 'ussd.signInFailed');
  }
  // The member's own language, else the organisation's default the session began in.
  const language = memberLanguage(member, data.language);
  const signedIn = { ...data, language, memberId: member.id };
  let issued;
  try {
    issued = await issueCode(ctx, { purpose: 'voter', subjectId: member.id, channel: 'sms' });
  } catch (error) {
    if (error instanceof AppError && error.status === 429) return over(signedIn, 'ussd.tooSoon');
    throw error;
  }
  const delivered = await deliverCode(
    ctx,
    deps,
    {
      role: 'voter',
      subjectId: member.id,
      channel: 'sms',
      to: member.phone,
      name: member.name,
      ip,
      activity: 'Voter sign-in: USSD code sent',
      language,
    },
    issued,
  );
  if (!delivered) return over(signedIn, 'ussd.smsFailed');
  // The member's own pin may stand in for the code; the default pin never (no stored pin, no pin).
  const hasPin = member.pinHash !== null;
  return {
    answer: con(screen(t(language, hasPin ? 'ussd.enterCodeOrPin' : 'ussd.enterCode'))),
    data: { ...signedIn, step: 'code', challengeId: issued.challengeId, hasPin, name: member.name },
  };
}

/**
 * The code from the SMS, or the member's own pin where they set one: the one-time-code rules,
 * counted with the member's SMS sign-in failures. Every wrong entry (a wrong pin too) spends one
 * of the code's tries, so a session guesses at most `MAX_TRIES` times; a right pin spends the code.
 */
async function checkCode(ctx: Core, data: UssdSessionData, code: string, ip: string): Promise<Outcome> {
  const memberId = data.memberId!;
  const activity = 'Voter sign-in: USSD code check';
  let attempt;
  try {
    attempt = await beginAttempt(ctx, countersFor(ctx, 'voter', memberId, 'code', ip));
  } catch (error) {
    if (error instanceof AppError && error.status === 429) return over(data, 'ussd.tooMany');
    throw error;
  }
  // The pin is read only where the member set one; the name (for the log) came with the member number.
  const member = data.hasPin ? await memberPin(ctx.database.db, memberId) : undefined;
  const name = member?.name ?? data.name ?? 'unknown';
  const pinHash = data.hasPin ? (member?.pinHash ?? null) : null;
  // Checked outside the code's transaction: a slow hash never holds the code's row locked.
  const byPin = pinHash !== null && /^\d{4,8}$/.test(code) && (await ctx.passwords.verify(code, pinHash));
  const succeeded = (tx: Tx, how: string) =>
    // The verified stamp last, as before its move to the member store: the statements reach the
    // transaction in the same order (the log row, the account's failures, then the member row).
    Promise.all([
      recordActivity(ctx, { name, activity, userId: memberId, userType: 'voter', ip, status: 'success', data: how }, tx),
      attempt.succeeded(tx),
      markVerified(tx, memberId, ctx.now()),
    ]).then(() => undefined);
  const check = await inTransaction(ctx, 'USSD PIN check', async (tx) => {
    if (byPin) {
      // The code is spent with the pin's success: it opens nothing afterwards.
      await spendCode(tx, data.challengeId!, ctx.now());
      await succeeded(tx, 'pin');
      return { ok: true } as const;
    }
    if (!/^\d{6}$/.test(code) && pinHash === null) return { ok: false, reason: 'wrong' } as const;
    return consumeCode(ctx, tx, { purpose: 'voter', subjectId: memberId, challengeId: data.challengeId!, code }, () =>
      succeeded(tx, 'code'),
    );
  });
  if (!check.ok) {
    await recordActivity(ctx, { name, activity, userId: memberId, userType: 'voter', ip, status: 'failed', data: check.reason });
    if (check.reason === 'wrong')
      return { answer: con(screen(t(data.language, data.hasPin ? 'ussd.codeOrPinWrong' : 'ussd.codeWrong'))), data };
    return over(data, 'ussd.codeDead');
  }
  return openElections(ctx, { ...data, challengeId: undefined, hasPin: undefined, name: undefined });
}

/** The positions of the election's ballot the member has not voted for yet (a vote on the web counts). */
async function stillOpen(ctx: Core, memberId: number, ballot: BallotGroup[]): Promise<BallotGroup[]> {
  if (ballot.length === 0) return [];
  const done = await positionsVotedBy(
    ctx.database.db,
    memberId,
    ballot.map((g) => g.position_id),
  );
  const voted = new Set(done.map((r) => r.positionId));
  return ballot.filter((g) => !voted.has(g.position_id));
}

/**
 * After sign-in: the open elections whose roll the member is on. None: why (paused, closed, off
 * the roll); one: its ballot; several: a menu.
 */
async function openElections(ctx: Core, data: UssdSessionData): Promise<Outcome> {
  const rows = await unarchivedElectionStates(ctx.database.db);
  const open = rows.filter((r) => r.active && r.closedAt === null);
  const mine: { id: number; title: string }[] = [];
  const ballots = new Map<number, BallotGroup[]>();
  for (const r of open) {
    const ballot = await getBallot(ctx, data.memberId!, r.id);
    if (ballot.length === 0) continue;
    mine.push({ id: r.id, title: r.title || `#${r.id}` });
    ballots.set(r.id, ballot);
  }
  if (mine.length === 0) {
    if (open.length > 0) return over(data, 'ussd.offRoll');
    if (rows.some((r) => r.closedAt === null && r.openedAt !== null)) return over(data, 'ussd.paused');
    if (rows.some((r) => r.closedAt !== null)) return over(data, 'ussd.closed');
    return over(data, 'ussd.nothingOpen');
  }
  if (mine.length === 1) return startBallot(ctx, { ...data, elections: undefined }, mine[0]!.id, ballots.get(mine[0]!.id));
  const menu = { ...data, step: 'election' as const, elections: mine };
  return { answer: con(electionMenu(menu, false)), data: menu };
}

const electionMenu = (data: UssdSessionData, invalid: boolean) =>
  menuScreen(
    t(data.language, 'ussd.chooseElection'),
    data.elections!.map((e) => e.title),
    invalid,
    data.language,
  );

async function pickElection(ctx: Core, data: UssdSessionData, input: string): Promise<Outcome> {
  const n = /^\d{1,2}$/.test(input) ? Number(input) : 0;
  const chosen = data.elections![n - 1];
  if (!chosen) return { answer: con(electionMenu(data, true)), data };
  return startBallot(ctx, data, chosen.id);
}

/** What the screens need of a position (session-store.ts keeps it with the session). */
const slim = (group: BallotGroup): BallotGroup => ({
  ...group,
  description: null,
  candidates: group.candidates.map((c) => ({ id: c.id, name: c.name, photo: null, statement: null })),
  translations: group.translations
    ? Object.fromEntries(
        Object.entries(group.translations).flatMap(([language, texts]) => (texts.title ? [[language, { title: texts.title }]] : [])),
      )
    : undefined,
});

/** The election's ballot: every position still open to the member, from the first. */
async function startBallot(ctx: Core, data: UssdSessionData, electionId: number, read?: BallotGroup[]): Promise<Outcome> {
  const ballot = read ?? (await getBallot(ctx, data.memberId!, electionId));
  if (ballot.length === 0) return over(data, 'ussd.offRoll');
  const open = await stillOpen(ctx, data.memberId!, ballot);
  if (open.length === 0) return over(data, 'ussd.allVoted');
  const next: UssdSessionData = {
    ...data,
    step: 'ballot',
    electionId,
    positions: open.map((g) => g.position_id),
    ballot: open.map(slim),
    index: 0,
    page: 0,
    current: [],
    picks: {},
  };
  return showPosition(ctx, next, false);
}

/** The ballot's groups by position id: as read when the election was chosen (read again for a session without them). */
async function groupsOf(ctx: Core, data: UssdSessionData): Promise<Map<number, BallotGroup>> {
  const ballot = data.ballot ?? (await getBallot(ctx, data.memberId!, data.electionId!));
  return new Map(ballot.map((g) => [g.position_id, g]));
}

async function showPosition(ctx: Core, data: UssdSessionData, invalid: boolean, groups?: Map<number, BallotGroup>): Promise<Outcome> {
  const all = groups ?? (await groupsOf(ctx, data));
  let next = data;
  // A position that left the ballot meanwhile (no candidates any more) is passed over.
  while (next.index! < next.positions!.length && !all.has(next.positions![next.index!]!)) next = { ...next, index: next.index! + 1 };
  if (next.index! >= next.positions!.length) return showConfirm(next, all, false);
  const group = all.get(next.positions![next.index!]!)!;
  return { answer: con(positionScreen(group, next.language, next.current!, next.page!, invalid)), data: next };
}

/** On to the next position (or the summary), with this one's choices recorded. */
async function nextPosition(ctx: Core, data: UssdSessionData, chosen: number[], groups: Map<number, BallotGroup>): Promise<Outcome> {
  const position = data.positions![data.index!]!;
  const next: UssdSessionData = { ...data, picks: { ...data.picks, [position]: chosen }, index: data.index! + 1, page: 0, current: [] };
  return showPosition(ctx, next, false, groups);
}

async function onPosition(ctx: Core, data: UssdSessionData, input: string): Promise<Outcome> {
  const groups = await groupsOf(ctx, data);
  const position = data.positions![data.index!]!;
  const group = groups.get(position);
  if (!group) return showPosition(ctx, data, false, groups);
  const current = data.current ?? [];
  const { max, several } = choicesOf(group);
  const view = positionView(group, data.language, current);
  if (input === '0') return back(ctx, data, groups);
  if (input === '00') return nextPosition(ctx, data, [], groups);
  if (input === '98') {
    if (data.page! + 1 < view.pages.length) return showPosition(ctx, { ...data, page: data.page! + 1 }, false, groups);
    return showPosition(ctx, data, true, groups);
  }
  if (input === '99' && several) return nextPosition(ctx, data, current, groups);
  const n = /^\d{1,2}$/.test(input) && !input.startsWith('0') ? Number(input) : 0;
  const option = view.options[n - 1];
  if (!option) return showPosition(ctx, data, true, groups);
  const chosen = [...current, option.id];
  if (!several || chosen.length >= max) return nextPosition(ctx, data, chosen, groups);
  return showPosition(ctx, { ...data, current: chosen, page: 0 }, false, groups);
}

/** `0`: the page before, the last choice here undone, the position before, or the election menu. */
async function back(ctx: Core, data: UssdSessionData, groups: Map<number, BallotGroup>): Promise<Outcome> {
  if (data.page! > 0) return showPosition(ctx, { ...data, page: data.page! - 1 }, false, groups);
  if (data.current!.length > 0) return showPosition(ctx, { ...data, current: data.current!.slice(0, -1) }, false, groups);
  if (data.index! > 0) return reopen(ctx, data, data.index! - 1, groups);
  if (data.elections && data.elections.length > 1) {
    const menu: UssdSessionData = {
      ...data,
      step: 'election',
      electionId: undefined,
      positions: undefined,
      ballot: undefined,
      picks: undefined,
    };
    return { answer: con(electionMenu(menu, false)), data: menu };
  }
  return showPosition(ctx, data, false, groups);
}

/** Back to an earlier position, its choices undone. */
function reopen(ctx: Core, data: UssdSessionData, index: number, groups: Map<number, BallotGroup>): Promise<Outcome> {
  const picks = { ...data.picks };
  delete picks[data.positions![index]!];
  return showPosition(ctx, { ...data, step: 'ballot', index, page: 0, current: [], picks }, false, groups);
}

function summaryRows(data: UssdSessionData, groups: Map<number, BallotGroup>) {
  return data.positions!.flatMap((id) => {
    const group = groups.get(id);
    if (!group) return [];
    const chosen = data.picks?.[id] ?? [];
    const names = chosen.map((c) => optionName(group, group.candidates.find((x) => x.id === c) ?? { name: '?' }, data.language));
    return [{ title: titleOf(group, data.language), names: chosen.length > 0 ? names : null }];
  });
}

function showConfirm(data: UssdSessionData, groups: Map<number, BallotGroup>, invalid: boolean): Outcome {
  const next: UssdSessionData = { ...data, step: 'confirm' };
  return { answer: con(confirmScreen(summaryRows(next, groups), next.language, invalid)), data: next };
}

/** The summary: `1` casts through the one vote path, `0` goes back to the last position. */
async function onConfirm(ctx: Core, deps: UssdDeps, data: UssdSessionData, input: string, ip: string): Promise<Outcome> {
  const groups = await groupsOf(ctx, data);
  if (input === '0') return reopen(ctx, data, data.positions!.length - 1, groups);
  if (input !== '1') return showConfirm(data, groups, true);
  const choices: Record<string, number | number[]> = {};
  for (const [position, chosen] of Object.entries(data.picks ?? {})) {
    const group = groups.get(Number(position));
    if (!group || chosen.length === 0) continue;
    choices[position] = choicesOf(group).several ? chosen : chosen[0]!;
  }
  if (Object.keys(choices).length === 0) return over(data, 'ussd.nothingChosen');
  let receipts: VoteReceipt[];
  try {
    receipts = await castVote(ctx, { memberId: data.memberId!, ip, channel: 'ussd' }, choices, data.electionId!);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return refused(ctx, data, refusal, Object.keys(choices).map(Number), groups);
  }
  // Statistics by channel: which of the member's ballots came by USSD (the pairs participation holds).
  await ctx.database.db
    .insert(ussdVotes)
    .values(receipts.map((r) => ({ memberId: data.memberId!, positionId: r.position_id })))
    .onConflictDoNothing();
  sendReceipts(ctx, deps, data, receipts, groups);
  return over(data, 'ussd.recorded');
}

/** A vote the vote path refused, in the member's words: already voted, paused, closed, off the roll. */
async function refused(
  ctx: Core,
  data: UssdSessionData,
  error: AppError,
  positions: number[],
  groups: Map<number, BallotGroup>,
): Promise<Outcome> {
  if (error.code === 'CONFLICT') {
    const done = await positionsVotedBy(ctx.database.db, data.memberId!, positions);
    const titles = done
      .map((r) => groups.get(r.positionId))
      .filter((g): g is BallotGroup => !!g)
      .map((g) => titleOf(g, data.language));
    return over(data, 'ussd.alreadyVoted', { positions: titles.join(', ').slice(0, 100) });
  }
  if (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND') {
    const row = await votingStateOf(ctx.database.db, data.electionId!);
    if (!row || row.closedAt !== null) return over(data, 'ussd.closed');
    if (!row.active) return over(data, 'ussd.paused');
    return over(data, 'ussd.offRoll');
  }
  ctx.logger.warn({ err: error, memberId: data.memberId }, 'USSD vote refused');
  return over(data, 'ussd.error');
}

/** The receipts by SMS after the answer: each position with its receipt code, never a choice. */
function sendReceipts(ctx: Core, deps: UssdDeps, data: UssdSessionData, receipts: VoteReceipt[], groups: Map<number, BallotGroup>) {
  const memberId = data.memberId!;
  deps.notices.enqueue(async () => {
    const phone = await memberPhone(ctx.database.db, memberId);
    if (phone === undefined) return;
    const list = receipts.map((r) => {
      const group = groups.get(r.position_id);
      return `${group ? titleOf(group, data.language) : `#${r.position_id}`} ${r.vvpat}`;
    });
    await deps.delivery.sendSms({
      to: phone,
      message: t(data.language, 'sms.ussdReceipts', { app: ctx.env.APP_NAME, receipts: list.join('; ') }),
    });
  });
}
