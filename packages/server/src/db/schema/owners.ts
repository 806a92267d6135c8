import type * as schema from './index';

/**
 * Who owns each table (docs/architecture.md "Module map", the Owns column): the one server module
 * (`modules/<m>/`) whose rules decide its writes. A module's files import only the tables it owns
 * from `db/schema`; another module reaches them through the table's store under `db/` (the
 * election store, the member store, …) or the owner's `index.ts`. `owners.test.ts` fails on a
 * module file that imports a table it does not own, or names one in raw SQL (a statement that needs
 * it embeds a fragment of the table's store).
 *
 * An owner is the module whose rules decide the table's writes. Another module that writes it does
 * so through the owner's index.ts when it sits above the owner, or through the table's store under
 * `db/` when the owner imports it (an election's copy writes positions).
 */
export const MODULES = [
  'auth',
  'ballots',
  'candidates',
  'declaration',
  'elections',
  'help',
  'lifecycle',
  'logs',
  'members',
  'nominations',
  'register',
  'reminders',
  'results',
  'setup',
  'staff',
  'ussd',
  'vvpat',
] as const;
export type ModuleName = (typeof MODULES)[number];

/** Every table the schema exports. */
export type TableName = keyof typeof schema;

export const TABLE_OWNERS = {
  // reference.ts
  /** Written by the import (a branch it names is created) and the set-up's branch edits. */
  branches: 'members',
  /** Written by the set-up, and by an election's copy (elections/catalogue.ts). */
  positions: 'setup',
  motionOptions: 'setup',
  /** The nominate page's items (the demo seed writes them). */
  items: 'ballots',
  /** Empty: a place for an installation-wide value, none in use. */
  settings: 'elections',
  /** Through the election store (db/election-store.ts); the register's attribute definitions too. */
  organisation: 'elections',
  election: 'elections',
  electionRoll: 'elections',
  registerClaims: 'register',
  // people.ts
  members: 'members',
  /** A member's candidacies: `replacePositions` (members) is their one rule, which candidates and nominations call. */
  candidacies: 'members',
  staff: 'staff',
  // auth.ts (written by src/auth, the sign-in infrastructure, for the auth module)
  sessions: 'auth',
  otpChallenges: 'auth',
  authFailures: 'auth',
  usedIdTokens: 'auth',
  // voting.ts (cast_vote and the mixer)
  ballots: 'ballots',
  ballotQueue: 'ballots',
  participation: 'ballots',
  commitments: 'results',
  declarations: 'declaration',
  // records.ts (lib/activity-log.ts writes the activity log for every module)
  activityLogs: 'logs',
  issueReports: 'help',
  // reminders.ts
  reminders: 'reminders',
  reminderRecipients: 'reminders',
  // ussd.ts
  ussdSessions: 'ussd',
  ussdVotes: 'ussd',
  // signatures.ts
  signingKeys: 'declaration',
  declarationSignatures: 'declaration',
  // nominations.ts
  nominations: 'nominations',
  nominationSupporters: 'nominations',
} as const satisfies Record<TableName, ModuleName>;
