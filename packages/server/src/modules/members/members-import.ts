import type { MembersContext } from './context';
import {
  ATTRIBUTE_FORMAT,
  parseAttributeValue,
  type AttributeDef,
  type Attributes,
  CONTACT_CHANGE_AFTER_VOTE,
  displayNameSchema,
  followsMemberNoPattern,
  inEnglish,
  memberLanguageSchema,
  memberNoFormatMessage,
  memberNoSchema,
  nameCharactersMessage,
  nameSchema,
  normaliseName,
  optionalEmailSchema,
  registerPhoneSchema,
  said,
} from '@kura/contract';
import { parse, type CsvError } from 'csv-parse/sync';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { allBranches, existingMemberNos, insertBranches, membersByNumber, membersWithEmails, upsertMembers } from '../../db/member-store';
import { AppError } from '../../errors';
import type { SaidValues } from '../../i18n';
import type { Actor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { uniqueViolation } from '../../db/errors';
import { freezeDueRolls, readMemberNoPattern } from '../../db/election-store';
import { mergeAttributes, readAttributeDefs } from '../register';
import { BRANCH_LOCKED_AFTER_VOTE, declaredCandidateIdentities, membersLockedToBranch } from './members.service';
import {
  checkContactChanges,
  recordContactChanges,
  sendContactChangeNotices,
  type ContactChanges,
  type ProposedContact,
} from './contact-changes';

export const IMPORT_COLUMNS = ['member_no', 'name', 'phone', 'branch'] as const;
/**
 * Columns a file may leave out: without `email` or `language`, existing members keep theirs and new
 * ones get none (e-mail) or the organisation's default (language).
 */
export const OPTIONAL_IMPORT_COLUMNS = ['email', 'language'] as const;
type Column = (typeof IMPORT_COLUMNS)[number];
type OptionalColumn = (typeof OPTIONAL_IMPORT_COLUMNS)[number];

export type ImportLineError = { line: number; message: string; issue?: string };
export type ImportOutcome = { created: number; updated: number; errors: ImportLineError[] };

/** Enough to fix a file in one pass without turning a garbage upload into a megabyte answer. */
const MAX_REPORTED_ERRORS = 200;
const WRITE_CHUNK = 500;

const RowSchema = z.object({
  member_no: memberNoSchema,
  name: nameSchema,
  // Optional: empty means none; absent when the file has no such column.
  email: optionalEmailSchema,
  // Any accepted spelling, stored in E.164.
  phone: registerPhoneSchema,
  // A branch by name (normalised like every display name) or by id.
  branch: displayNameSchema({
    max: 150,
    required: said('field.isRequiredPlain', { field: 'branch' }),
    characters: nameCharactersMessage('branch name'),
  }),
  // A shipped code, or empty for the organisation's default; absent when the file has no such column.
  language: memberLanguageSchema.optional(),
});

type ImportRow = {
  line: number;
  memberNo: string;
  name: string;
  /** null: none; undefined: the file has no email column. */
  email: string | null | undefined;
  phone: string;
  branchId: number;
  /** undefined: the file has no language column. */
  language: string | null | undefined;
  /** The file's attribute columns for this line (null: the cell was empty, which clears the value). */
  attributes: Attributes;
};

/** Thrown inside the import transaction so nothing is written; carries the line errors out. */
class ImportRejected extends AppError {
  constructor(readonly lineErrors: ImportLineError[]) {
    super('VALIDATION', `${lineErrors.length} line${lineErrors.length === 1 ? '' : 's'} rejected, nothing imported`);
  }
}

function capErrors(errors: ImportLineError[]): ImportLineError[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const shown = errors.slice(0, MAX_REPORTED_ERRORS);
  shown.push({ line: errors[MAX_REPORTED_ERRORS]!.line, message: `…and ${errors.length - MAX_REPORTED_ERRORS} more lines with errors` });
  return shown;
}

type Parsed = {
  records: { line: number; fields: Record<Column, string> & Partial<Record<OptionalColumn, string>> }[];
  errors: ImportLineError[];
  /** The optional columns the header names. */
  optional?: OptionalColumn[];
  /** The attribute columns the header names, with each record's cells for them (docs/api.md "The register"). */
  attributeColumns?: AttributeDef[];
  attributeCells?: Map<number, Record<string, string>>;
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file as UTF-8 text, or a line error naming the first line that is not UTF-8 (a Latin-1
 * 'é' is the byte 0xE9): lenient decoding would turn it into U+FFFD and store a wrong name.
 * A UTF-8 byte-order mark is kept here and skipped by the CSV parser.
 */
function decodeUtf8(bytes: Buffer): string | ImportLineError {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let start = 0;
    for (let line = 1; ; line++) {
      const end = bytes.indexOf(0x0a, start);
      const chunk = bytes.subarray(start, end === -1 ? bytes.length : end);
      try {
        strictUtf8.decode(chunk);
      } catch {
        return { line, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and import it again' };
      }
      if (end === -1) return { line: 1, message: 'The file is not UTF-8 text; save it as "CSV UTF-8" and import it again' };
      start = end + 1;
    }
  }
}

/** CSV text → records keyed by column, with the file line each record starts on (header = line 1). */
export function parseMembersCsv(input: Buffer | string, defs: readonly AttributeDef[] = []): Parsed {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const decoded = decodeUtf8(input);
    if (typeof decoded !== 'string') return { records: [], errors: [decoded] };
    text = decoded;
  }
  if (text.includes('\u0000')) return { records: [], errors: [{ line: 1, message: 'The file is not a CSV text file' }] };
  let raw: { record: string[]; info: { lines: number } }[];
  try {
    raw = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as unknown as typeof raw;
  } catch (error) {
    const e = error as CsvError & { lines?: number };
    return { records: [], errors: [{ line: e.lines ?? 1, message: `The file is not valid CSV: ${e.message.split(':')[0]}` }] };
  }
  const [header, ...body] = raw;
  if (!header) return { records: [], errors: [{ line: 1, message: 'The file is empty' }] };
  const names = header.record.map((h) => h.trim().toLowerCase());
  const missing = IMPORT_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    return {
      records: [],
      errors: [
        { line: header.info.lines, message: `The header must name the columns ${IMPORT_COLUMNS.join(',')}; missing ${missing.join(', ')}` },
      ],
    };
  }
  const optional = OPTIONAL_IMPORT_COLUMNS.filter((c) => names.includes(c));
  const known = new Set<string>([...IMPORT_COLUMNS, ...OPTIONAL_IMPORT_COLUMNS]);
  const attributeColumns = defs.filter((d) => names.includes(d.key));
  // A column that is neither the register's nor an attribute is a mistake to fix, not data to drop.
  const unknown = names.filter((n) => n !== '' && !known.has(n) && !defs.some((d) => d.key === n));
  if (unknown.length > 0) {
    return {
      records: [],
      errors: [
        {
          line: header.info.lines,
          message: `The header names column${unknown.length > 1 ? 's' : ''} the register does not have: ${unknown.join(', ')} (define ${unknown.length > 1 ? 'them' : 'it'} as member attributes first, or remove ${unknown.length > 1 ? 'them' : 'it'})`,
        },
      ],
    };
  }
  const repeated = names.filter((n, i) => n !== '' && names.indexOf(n) !== i);
  if (repeated.length > 0)
    return {
      records: [],
      errors: [{ line: header.info.lines, message: `The header names a column twice: ${[...new Set(repeated)].join(', ')}` }],
    };
  const columns = [...IMPORT_COLUMNS, ...optional];
  const index = Object.fromEntries(columns.map((c) => [c, names.indexOf(c)])) as Record<Column | OptionalColumn, number>;
  const attributeCells = new Map<number, Record<string, string>>();
  const records = body.map(({ record, info }) => {
    // info.lines is where the record ends; a quoted field may have spanned several lines.
    const line = info.lines - (record.join('').match(/\n/g)?.length ?? 0);
    const fields = Object.fromEntries(columns.map((c) => [c, record[index[c]] ?? ''])) as Parsed['records'][number]['fields'];
    attributeCells.set(line, Object.fromEntries(attributeColumns.map((d) => [d.key, record[names.indexOf(d.key)] ?? ''])));
    return { line, fields };
  });
  return { records, errors: [], optional, attributeColumns, attributeCells };
}

export type ImportOptions = {
  /** Create the branches the file names that do not exist yet (`?create_branches=1`). */
  createBranches?: boolean;
  /** Change the phone or email of members who voted while voting is open (`confirm_contact_changes=1`). */
  confirmContactChanges?: boolean;
};

/** A branch name from a file line must fit the branch rules of the Set-up page. */
const NewBranchName = z
  .string()
  .max(100, 'A branch name must be at most 100 characters long')
  .refine((n) => n.toLowerCase() !== 'national', 'A branch cannot be called National');

/**
 * Checks every line against the member rules, the branches, each other and the database. With
 * `createBranches`, an unknown branch is created (inside the import's transaction, so a rejected
 * file creates none); without it, it is a line error naming the branch.
 */
async function validateRows(
  tx: Tx,
  parsed: Parsed,
  options: ImportOptions,
): Promise<{ rows: ImportRow[]; errors: ImportLineError[]; createdBranches: string[] }> {
  const errors = [...parsed.errors];
  const branchRows = await allBranches(tx);
  const branchByKey = new Map<string, number>();
  for (const b of branchRows) {
    branchByKey.set(normaliseName(b.name).toLowerCase(), b.id);
    branchByKey.set(String(b.id), b.id);
  }
  const createdBranches: string[] = [];
  if (options.createBranches) {
    const wanted = new Map<string, { name: string; line: number }>();
    for (const { line, fields } of parsed.records) {
      // A branch name the rule refuses is reported with its line below, and never created.
      const branch = RowSchema.shape.branch.safeParse(fields.branch);
      const name = branch.success ? branch.data : '';
      if (name && !branchByKey.has(name.toLowerCase()) && !wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { name, line });
    }
    const fresh: string[] = [];
    for (const { name, line } of wanted.values()) {
      const ok = NewBranchName.safeParse(name);
      if (ok.success) fresh.push(name);
      else errors.push({ line, message: `branch: ${inEnglish(ok.error.issues[0]!.message)}` });
    }
    if (fresh.length > 0) {
      const inserted = await insertBranches(tx, fresh);
      for (const b of inserted) {
        branchByKey.set(b.name.toLowerCase(), b.id);
        createdBranches.push(b.name);
      }
    }
  }
  const pattern = await readMemberNoPattern(tx);
  const withEmail = parsed.optional?.includes('email') ?? false;
  const rows: ImportRow[] = [];
  const lineOfMemberNo = new Map<string, number>();
  const lineOfEmail = new Map<string, number>();
  for (const { line, fields } of parsed.records) {
    const result = RowSchema.safeParse(fields);
    if (!result.success) {
      const messages = result.error.issues.map((i) => `${i.path.join('.')}: ${inEnglish(i.message)}`);
      errors.push({ line, message: messages.join('; ') });
      continue;
    }
    const r = result.data;
    const problems: string[] = [];
    const attributes: Attributes = {};
    const cells = parsed.attributeCells?.get(line) ?? {};
    for (const def of parsed.attributeColumns ?? []) {
      const value = parseAttributeValue(def.type, cells[def.key] ?? '');
      if (value === undefined) problems.push(`${def.key}: "${(cells[def.key] ?? '').slice(0, 40)}" is not ${ATTRIBUTE_FORMAT[def.type]}`);
      else attributes[def.key] = value;
    }
    if (!followsMemberNoPattern(r.member_no, pattern)) problems.push(`member_no: ${inEnglish(memberNoFormatMessage(pattern))}`);
    const email = withEmail ? r.email : undefined;
    const branchId = branchByKey.get(r.branch.toLowerCase());
    if (branchId === undefined && !options.createBranches)
      problems.push(`branch: Unknown branch "${r.branch}" (create it on the Set-up page, or import with "create unknown branches")`);
    else if (branchId === undefined) problems.push(`branch: "${r.branch}" could not be created`);
    const dupNo = lineOfMemberNo.get(r.member_no);
    if (dupNo !== undefined) problems.push(`member_no: ${r.member_no} already appears on line ${dupNo}`);
    const dupEmail = email ? lineOfEmail.get(email) : undefined;
    if (dupEmail !== undefined) problems.push(`email: ${email} already appears on line ${dupEmail}`);
    if (problems.length > 0 || branchId === undefined) {
      errors.push({ line, message: problems.join('; ') });
      continue;
    }
    lineOfMemberNo.set(r.member_no, line);
    if (email) lineOfEmail.set(email, line);
    rows.push({ line, memberNo: r.member_no, name: r.name, email, phone: r.phone, branchId, language: r.language, attributes });
  }
  // An email may only move with its own member: another member's address is a clash.
  const withAddress = rows.filter((r): r is ImportRow & { email: string } => typeof r.email === 'string');
  for (let i = 0; i < withAddress.length; i += WRITE_CHUNK) {
    const chunk = withAddress.slice(i, i + WRITE_CHUNK);
    const owners = await membersWithEmails(
      tx,
      chunk.map((r) => r.email),
    );
    const ownerOf = new Map(owners.map((o) => [o.email, o.memberNo]));
    for (const r of chunk) {
      const owner = ownerOf.get(r.email);
      if (owner !== undefined && owner !== r.memberNo)
        errors.push({ line: r.line, message: `email: ${r.email} already belongs to member ${owner}` });
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { rows, errors, createdBranches };
}

/** The file's lines that name an existing member, each with that member's stored branch and contact details. */
async function existingMembersOf(tx: Tx, rows: ImportRow[]) {
  const found: {
    member: { id: number; memberNo: string; branchId: number; phone: string; email: string | null; language: string | null };
    row: ImportRow;
  }[] = [];
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = rows.slice(i, i + WRITE_CHUNK);
    const existing = await membersByNumber(
      tx,
      chunk.map((r) => r.memberNo),
    );
    const byNo = new Map(chunk.map((r) => [r.memberNo, r]));
    for (const member of existing) found.push({ member, row: byNo.get(member.memberNo)! });
  }
  return found;
}

/**
 * A re-import must not move a member who voted for a branch position to another branch (they
 * could then vote for the new branch's positions too): 409 naming the lines, nothing written.
 */
async function refuseBranchMovesAfterVoting(
  tx: Tx,
  existing: { member: { id: number; branchId: number }; row: ImportRow }[],
): Promise<void> {
  const moves = new Map<number, number>();
  const lineOf = new Map<number, ImportRow>();
  for (const { member: m, row } of existing) {
    if (m.branchId !== row.branchId) {
      moves.set(m.id, row.branchId);
      lineOf.set(m.id, row);
    }
  }
  const locked = await membersLockedToBranch(tx, moves);
  if (locked.size === 0) return;
  const lines = [...locked].map((id) => lineOf.get(id)!).sort((a, b) => a.line - b.line);
  throw AppError.say('CONFLICT', 'import.branchLocked', shownLines(lines), { issue: BRANCH_LOCKED_AFTER_VOTE });
}

/**
 * The phone and email changes the file makes to existing members. A member who voted while voting
 * is open keeps theirs unless the admin confirmed: each such line is a line error, nothing written.
 */
async function checkContactChangesOf(
  tx: Tx,
  existing: { member: { id: number; memberNo: string; phone: string; email: string | null; language: string | null }; row: ImportRow }[],
  confirm: boolean,
): Promise<ContactChanges> {
  const proposed: ProposedContact[] = [];
  const lineOf = new Map<number, number>();
  for (const { member: m, row } of existing) {
    // Without an email column the member keeps theirs.
    const email = row.email === undefined ? m.email : row.email;
    if (m.phone === row.phone && m.email === email) continue;
    proposed.push({
      id: m.id,
      memberNo: m.memberNo,
      name: row.name,
      old: { phone: m.phone, email: m.email },
      new: { phone: row.phone, email },
      // The notice speaks the language the file gives the member, else the one they have.
      language: row.language === undefined ? m.language : row.language,
    });
    lineOf.set(m.id, row.line);
  }
  const contacts = await checkContactChanges(tx, proposed, confirm);
  if (contacts.refused.length > 0) {
    const errors = contacts.refused.map((p) => ({
      line: lineOf.get(p.id)!,
      message: `member ${p.memberNo} ${CONTACT_CHANGE_AFTER_VOTE} (import again with confirm_contact_changes)`,
      issue: CONTACT_CHANGE_AFTER_VOTE,
    }));
    throw new ImportRejected(capErrors(errors.sort((a, b) => a.line - b.line)));
  }
  return contacts;
}

/**
 * A line may not rename a member who stands in a closed election (archived ones included): their
 * names are part of its declared result (409, nothing written). The file keys members by member
 * number, so that cannot change here.
 */
async function refuseCandidateRenamesAfterClose(tx: Tx, rows: ImportRow[]): Promise<void> {
  const byNo = new Map(rows.map((r) => [r.memberNo, r]));
  const renamed = (await declaredCandidateIdentities(tx))
    .map((c) => ({ c, row: byNo.get(c.memberNo) }))
    .filter((x): x is { c: (typeof x)['c']; row: ImportRow } => x.row !== undefined && x.row.name !== x.c.name)
    .map((x) => x.row)
    .sort((a, b) => a.line - b.line);
  if (renamed.length === 0) return;
  throw AppError.say('CONFLICT', 'import.candidateFrozen', shownLines(renamed));
}

/** The first five refused lines ("line 3 (member 1003)", by code) and how many more there are. */
function shownLines(lines: { line: number; memberNo: string }[]): SaidValues {
  return {
    lines: { list: lines.slice(0, 5).map((r) => ({ id: 'import.line', values: { line: r.line, memberNo: r.memberNo } })), join: 'comma' },
    more: Math.max(0, lines.length - 5),
  };
}

/** The attribute columns of the file (every line has the same), as a Postgres text[] literal. */
function attributeKeysOf(rows: ImportRow[]): string {
  const keys = Object.keys(rows[0]?.attributes ?? {});
  return `{${keys.join(',')}}`;
}

/** Inserts new members and updates existing ones by member number; answers how many of each. */
async function upsertRows(tx: Tx, rows: ImportRow[], now: Date): Promise<{ created: number; updated: number }> {
  let created = 0;
  // One header per file: every row has the language column or none has.
  const withLanguage = rows.some((r) => r.language !== undefined);
  const withEmail = rows.some((r) => r.email !== undefined);
  const withAttributes = rows.some((r) => Object.keys(r.attributes).length > 0);
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = rows.slice(i, i + WRITE_CHUNK);
    const existing = await existingMemberNos(
      tx,
      chunk.map((r) => r.memberNo),
    );
    created += chunk.length - existing.length;
    await upsertMembers(
      tx,
      // New members: the file's values; existing ones merge them (an empty cell clears).
      chunk.map((r) => ({ ...r, attributes: mergeAttributes({}, r.attributes) })),
      now,
      { withEmail, withLanguage, attributeKeys: withAttributes ? attributeKeysOf(rows) : null },
    );
  }
  return { created, updated: rows.length - created };
}

/**
 * Imports a members CSV (member_no,name,phone,branch[,email][,language]) all-or-nothing: every line is checked
 * first and any bad line means nothing is written. Re-importing the same file updates by member
 * number, so it is safe to run again after fixing a line.
 */
export async function importMembers(
  ctx: MembersContext,
  actor: Actor,
  input: Buffer | string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const parsed = parseMembersCsv(input, await readAttributeDefs(ctx.database.db));
  let createdBranches: string[] = [];
  try {
    const outcome = await auditedTransaction(
      ctx,
      {
        actor,
        activity: 'Members imported',
        data: (r: { created: number; updated: number; contacts: ContactChanges }) =>
          `created ${r.created}, updated ${r.updated}${r.contacts.changes.length ? `, contact details changed ${r.contacts.changes.length}` : ''}${createdBranches.length ? `; new branches: ${createdBranches.join(', ')}` : ''}`,
      },
      async (tx, note) => {
        // A register that has closed froze its roll before these lines land (docs/api.md "The register").
        await freezeDueRolls(tx, ctx.now());
        const validated = await validateRows(tx, parsed, options);
        const { rows, errors } = validated;
        createdBranches = validated.createdBranches;
        if (errors.length > 0) throw new ImportRejected(capErrors(errors));
        if (rows.length === 0) throw new ImportRejected([{ line: 2, message: 'The file has no member lines' }]);
        const existing = await existingMembersOf(tx, rows);
        await refuseBranchMovesAfterVoting(tx, existing);
        await refuseCandidateRenamesAfterClose(tx, rows);
        const contacts = await checkContactChangesOf(tx, existing, options.confirmContactChanges === true);
        let counts: { created: number; updated: number };
        try {
          counts = await upsertRows(tx, rows, ctx.now());
        } catch (error) {
          // Only a concurrent change can get past the checks above.
          if (uniqueViolation(error) !== undefined) throw AppError.say('CONFLICT', 'error.importRace');
          throw error;
        }
        await recordContactChanges(ctx, actor, contacts, tx);
        note.afterCommit(() => {
          sendContactChangeNotices(ctx, contacts);
          ctx.events.emit('members.changed');
          // Updated members may be candidates, whose names and branches the candidate lists show.
          if (counts.updated > 0) ctx.events.emit('candidates.changed');
        });
        return { ...counts, contacts };
      },
    );
    return { created: outcome.created, updated: outcome.updated, errors: [] };
  } catch (error) {
    if (error instanceof ImportRejected) return { created: 0, updated: 0, errors: error.lineErrors };
    throw error;
  }
}
