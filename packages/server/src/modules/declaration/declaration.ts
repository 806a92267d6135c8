import type { Language } from '@kura/contract';
import { readState, type ElectionId } from '../../db/election-store';
import { AppError } from '../../errors';
import type { ResultsContext } from '../results';
import { declarationLanguage, renderDeclarationPdf, rollSummary } from './declaration-pdf';
import { evidenceManifest } from './evidence';
import { getFinalResults } from './closing';
import { listSignatures } from './signatures';

/**
 * `GET psk/results/declaration.pdf` and the pack's `declaration.pdf` (docs/operations.md "After the
 * close: certifying the result"): the declared result with the roll, the final commitment, the
 * pack's digest and the signatures so far. Public once closed, like the declared result; 403 before.
 * `digest` is passed when the caller already holds the manifest (the pack), else computed.
 */
export async function declarationPdf(
  ctx: ResultsContext,
  id: ElectionId,
  lang?: Language,
  digest?: string,
): Promise<{ filename: string; pdf: Buffer }> {
  const state = await readState(ctx.database.db, id);
  if (!state.closedAt) throw AppError.say('FORBIDDEN', 'results.declaredAtClose');
  const signatures = await listSignatures(ctx, id);
  const language = declarationLanguage(lang, state.defaultLanguage);
  // Everything else on it is fixed at the close: one rendering per language and set of signatures,
  // so a flood of public downloads makes no new pass over the ballots (the digest) nor a new PDF.
  const last = signatures.at(-1);
  const key = `${id}:${language}:${signatures.length}:${last?.signed_at ?? ''}:${last?.fingerprint ?? ''}`;
  let cache = rendered.get(ctx.database);
  if (!cache) rendered.set(ctx.database, (cache = new Map()));
  let pdf = cache.get(key);
  if (!pdf) {
    pdf = render(ctx, id, state, language, signatures, digest);
    if (cache.size >= 64) cache.delete(cache.keys().next().value!);
    cache.set(key, pdf);
    pdf.catch(() => cache.delete(key));
  }
  return { filename: `declaration-election-${id}.pdf`, pdf: await pdf };
}

/** Rendered declarations per database (one process may hold several in tests), newest 64 kept. */
const rendered = new WeakMap<object, Map<string, Promise<Buffer>>>();

async function render(
  ctx: ResultsContext,
  id: ElectionId,
  state: Awaited<ReturnType<typeof readState>>,
  language: Language,
  signatures: Awaited<ReturnType<typeof listSignatures>>,
  digest: string | undefined,
): Promise<Buffer> {
  const results = await getFinalResults(ctx, id);
  const [manifestDigest, roll] = await Promise.all([
    digest ?? evidenceManifest(ctx, id).then((m) => m.digest),
    rollSummary(ctx.database.db, id),
  ]);
  return renderDeclarationPdf(
    {
      electionId: id,
      organisation: state.organisation,
      election: state.title,
      timeZone: state.timeZone,
      results,
      roll,
      digest: manifestDigest,
      signatures,
    },
    language,
  );
}
