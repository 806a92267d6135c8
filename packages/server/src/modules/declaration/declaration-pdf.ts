import {
  isTallyResult,
  type FinalResult,
  type FinalResultsResponse,
  type MotionResult,
  type RankedResult,
  type Signature,
} from '@kura/contract';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { readState, rollEntries, type ElectionId } from '../../db/election-store';
import { declarationSubject, rollHash, SEAL_PLACEHOLDER, sealPdf } from '../../evidence/digest';
import { defaultLanguage, t, type Language, type MessageId, type MessageValues } from '../../i18n';

/**
 * The declaration as a PDF (docs/operations.md "After the close: certifying the result"): what the
 * web declaration shows (each position's result, turnout by branch, the final commitment), with
 * the roll's size and hash, the evidence pack's digest and the signatures so far. A4, the text
 * selectable, DejaVu Sans embedded (it covers every Latin letter Kiswahili and the members' names
 * use), "Page n of m" on every page, in the reader's language.
 */

const resolveFont = createRequire(import.meta.url).resolve;
/** The font files, read once on first use (a few hundred kB each); each document embeds the glyphs it uses. */
let fonts: { regular: Buffer; bold: Buffer; mono: Buffer } | undefined;
const fontFiles = () =>
  (fonts ??= {
    regular: readFileSync(resolveFont('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(resolveFont('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
    mono: readFileSync(resolveFont('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf')),
  });

export type DeclarationInput = {
  electionId: number;
  organisation: string;
  election: string;
  timeZone: string;
  results: FinalResultsResponse;
  roll: { size: number; hash: string };
  digest: string;
  signatures: Signature[];
};

const share = (n: number, of: number) => (of > 0 ? `${((n / of) * 100).toFixed(1)}%` : '0.0%');

function formatDate(iso: string, timeZone: string, language: Language): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short', timeZone };
  try {
    return new Intl.DateTimeFormat(language === 'sw' ? 'sw-KE' : 'en-GB', options).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

/** The election's title in the reader's language where the admin translated it (docs/i18n.md "Ballot content"). */
const titleIn = (language: Language, r: { title: string; translations?: Record<string, Record<string, string>> }) =>
  r.translations?.[language]?.title?.trim() || r.title;

/**
 * Renders the declaration; resolves with the whole file (a few pages: it never holds ballots).
 * pdfkit (and its fonts, images and compression) is loaded at the first declaration, not at every
 * start of the server and of each operator command: about 0.28 s of CPU on a start that most
 * processes never need it for (BENCHMARKS.md).
 */
export async function renderDeclarationPdf(input: DeclarationInput, language: Language): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const say = (id: MessageId, values?: MessageValues) => t(language, id, values);
  const when = (iso: string) => formatDate(iso, input.timeZone, language);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 64, left: 56, right: 56 },
    bufferPages: true,
    lang: language,
    displayTitle: true,
    info: {
      Title: `${say('pdf.heading')}: ${input.election || input.organisation}`,
      Subject: declarationSubject(input.electionId, input.digest),
      Keywords: input.digest,
      Creator: 'Kura',
      Producer: 'Kura',
    },
  });
  // The seal: replaced by the file's own hash once it is rendered (sealPdf). pdfkit writes every
  // key of `info` into the info dictionary; its types name only the standard ones.
  Object.assign(doc.info, { KuraSeal: SEAL_PLACEHOLDER });
  const files = fontFiles();
  doc.registerFont('regular', files.regular);
  doc.registerFont('bold', files.bold);
  doc.registerFont('mono', files.mono);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => {
      try {
        resolve(sealPdf(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
    doc.on('error', reject);
  });

  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const left = doc.page.margins.left;
  const para = (text: string, size = 10) => doc.font('regular').fontSize(size).text(text, left, undefined, { width });
  const heading = (text: string, size = 13) => {
    doc.moveDown(0.8);
    // A heading is never the last line of a page.
    if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    doc.font('bold').fontSize(size).text(text, left, undefined, { width });
    doc.moveDown(0.2);
  };
  const mono = (text: string) => doc.font('mono').fontSize(8.5).text(text, left, undefined, { width });
  /** A simple table: a bold header row, then one line per row; columns as fractions of the width. */
  const table = (columns: { label: string; share: number; right?: boolean }[], rows: (string | number)[][]) => {
    const line = (cells: (string | number)[], font: string) => {
      doc.font(font).fontSize(9.5);
      const heights = cells.map((c, i) => doc.heightOfString(String(c), { width: columns[i]!.share * width - 6 }));
      const h = Math.max(...heights);
      if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      let x = left;
      cells.forEach((c, i) => {
        const w = columns[i]!.share * width;
        doc.text(String(c), x, y, { width: w - 6, align: columns[i]!.right ? 'right' : 'left' });
        x += w;
      });
      doc.x = left;
      doc.y = y + h + 3;
    };
    line(
      columns.map((c) => c.label),
      'bold',
    );
    doc
      .moveTo(left, doc.y - 1)
      .lineTo(left + width, doc.y - 1)
      .lineWidth(0.5)
      .stroke();
    doc.y += 2;
    for (const r of rows) line(r, 'regular');
  };

  const { results } = input;
  const { turnout, commitment } = results;
  doc.font('bold').fontSize(18).text(say('pdf.heading'), { width });
  doc.moveDown(0.3);
  para(say('pdf.election', { organisation: input.organisation, election: input.election || '–', id: input.electionId }), 11);
  doc.moveDown(0.3);
  para(
    say('pdf.closed', {
      date: when(results.closed_at),
      voted: turnout.voted,
      members: turnout.members,
      share: share(turnout.voted, turnout.members),
    }),
  );

  for (const p of results.data) {
    if (!isTallyResult(p)) {
      if (p.kind === 'motion') motion(p);
      else ranked(p);
    } else tally(p);
  }

  function tally(p: FinalResult) {
    heading(`${titleIn(language, p)} ${say('pdf.seatsVotes', { seats: p.seats, total: p.total })}`);
    table(
      [
        { label: say('pdf.candidate'), share: 0.45 },
        { label: say('pdf.votes'), share: 0.15, right: true },
        { label: say('pdf.share'), share: 0.15, right: true },
        { label: say('pdf.outcome'), share: 0.25 },
      ],
      p.values.map((v) => [v.name, v.count, share(v.count, p.total), v.elected ? say('pdf.elected') : v.tied ? say('pdf.tied') : '']),
    );
    if (p.values.some((v) => v.tied)) para(say('pdf.tie'));
  }

  function motion(m: MotionResult) {
    heading(`${titleIn(language, m)} ${say('pdf.motion')}`);
    table(
      [
        { label: say('pdf.outcome'), share: 0.4 },
        { label: say('pdf.votes'), share: 0.2, right: true },
      ],
      [
        [say('ussd.yes'), m.yes],
        [say('ussd.no'), m.no],
        [say('ussd.abstain'), m.abstain],
      ],
    );
    para(
      say('pdf.needed', { share: m.threshold }) +
        (m.quorum_percent === null
          ? say('pdf.noQuorum')
          : say('pdf.quorum', { quorum: m.quorum_percent, met: m.quorum_met ? 'yes' : 'no' })),
    );
    doc
      .font('bold')
      .fontSize(10)
      .text(say('pdf.outcomeLine', { passed: m.passed ? 'yes' : 'no' }), left, undefined, { width });
  }

  function ranked(r: RankedResult) {
    heading(`${titleIn(language, r)} ${say('pdf.rankedSummary', { seats: r.seats, ballots: r.ballots })}`);
    const names = new Map(r.values.map((v) => [v.candidate_id, v.name]));
    const nameOf = (id: number) => names.get(id) ?? `#${id}`;
    const elected = r.values.filter((v) => v.elected).map((v) => v.name);
    para(say('pdf.quotaElected', { quota: r.quota, elected: elected.length ? elected.join(', ') : say('pdf.none') }));
    doc.moveDown(0.2);
    for (const round of r.rounds) {
      doc
        .font('bold')
        .fontSize(9.5)
        .text(
          say('pdf.roundLine', { round: round.round, action: round.action, names: round.candidate_ids.map(nameOf).join(', ') }),
          left,
          undefined,
          {
            width,
          },
        );
      const votes = r.values.map((v) => `${v.name} ${round.votes[String(v.candidate_id)] ?? '–'}`).join(', ');
      doc
        .font('regular')
        .fontSize(9)
        .text(say('pdf.roundVotes', { votes, nontransferable: round.nontransferable }), left + 12, undefined, { width: width - 12 });
    }
  }

  heading(say('pdf.turnoutByBranch'));
  table(
    [
      { label: say('pdf.branch'), share: 0.4 },
      { label: say('pdf.members'), share: 0.2, right: true },
      { label: say('pdf.voted'), share: 0.2, right: true },
      { label: say('pdf.turnout'), share: 0.2, right: true },
    ],
    turnout.branches.map((b) => [b.branch, b.members, b.voted, share(b.voted, b.members)]),
  );

  heading(say('pdf.roll'));
  para(say('pdf.rollLine', { size: input.roll.size }));
  mono(input.roll.hash);

  heading(say('pdf.finalCommitment'));
  para(say('pdf.commitment', { count: commitment.count, date: when(commitment.at) }));
  mono(commitment.hash);
  if (results.audit) para(say('pdf.audit', { ok: results.audit.ok ? 'yes' : 'no', problems: results.audit.problems.length }));

  heading(say('pdf.evidence'));
  para(say('pdf.digest'));
  mono(input.digest);
  doc.moveDown(0.2);
  para(say('pdf.verify'), 9);

  heading(say('pdf.signatures'));
  if (input.signatures.length === 0) para(say('pdf.noSignatures'));
  for (const s of input.signatures) {
    doc.moveDown(0.3);
    para(say('pdf.signatureLine', { name: s.name, role: s.role, kind: s.kind, date: when(s.signed_at), fingerprint: s.fingerprint }));
    doc
      .font('regular')
      .fontSize(9.5)
      .text(say('pdf.statement', { statement: s.statement }), left + 12, undefined, { width: width - 12 });
  }

  // "Page n of m" at the foot of every page, written once every page exists.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .text(say('pdf.page', { page: i + 1, pages: range.count }), left, doc.page.height - 40, { width, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** The frozen roll's size and hash (`rollHash`: as `verify-evidence` computes it from roll.csv), from the numbers recorded at the freeze. */
export async function rollSummary(db: Parameters<typeof readState>[0], id: ElectionId): Promise<{ size: number; hash: string }> {
  const rows = await db.execute<{ member_no: string }>(sql`
    select roll.member_no from (${rollEntries(id)}) roll`);
  const numbers = rows.map((r) => r.member_no);
  return { size: numbers.length, hash: rollHash(numbers) };
}

/** The reader's language: `lang` when given (the contract admits shipped ones only), else the organisation's. */
export const declarationLanguage = (lang: Language | undefined, organisationDefault: string | null | undefined): Language =>
  lang ?? defaultLanguage(organisationDefault);
