import type { Contract } from '@kura/contract';
import type { RouterImplementation } from '../../http/routes';
import { actorOf } from '../../auth/actor';
import { resolveElection } from '../../http/election-param';
import type { ResultsContext } from '../results';
import { electionOf } from '../../http/election-param';
import { declarationPdf } from './declaration';
import { evidenceManifest, evidenceZip, type PackFile } from './evidence';
import { listSignatures, putSigningKey, signDeclaration, signerKeys } from './signatures';

/** The declaration, signed, and the evidence pack (docs/operations.md "After the close: certifying the result"). */
export function evidenceRoutes(ctx: ResultsContext): RouterImplementation<Contract['api']['evidence']> {
  const json = (path: string, value: unknown): PackFile => ({
    path,
    produce: async function* () {
      yield `${JSON.stringify(value, null, 2)}\n`;
    },
  });
  return {
    putSigningKey: async ({ req, body }) => ({
      status: 200,
      body: { data: await putSigningKey(ctx, await actorOf(ctx, req), body.public_key) },
    }),
    getEvidenceDigest: async ({ params }) => {
      const id = await resolveElection(ctx.database.db, params.id);
      const { digest, files } = await evidenceManifest(ctx, id);
      return { status: 200, body: { data: { digest, files } } };
    },
    postSignature: async ({ req, params, body }) => {
      const id = await resolveElection(ctx.database.db, params.id);
      return { status: 201, body: { data: await signDeclaration(ctx, await actorOf(ctx, req), id, body) } };
    },
    listSignatures: async ({ params }) => {
      const id = await resolveElection(ctx.database.db, params.id);
      return { status: 200, body: { data: await listSignatures(ctx, id) } };
    },
    // Whoever may see the final results (everyone, once closed) may download the declaration.
    getDeclarationPdf: async ({ query, res }) => {
      const { filename, pdf } = await declarationPdf(ctx, await electionOf(ctx, query), query.lang);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
      return { status: 200, body: pdf };
    },
    getEvidence: async ({ params, res }) => {
      const id = await resolveElection(ctx.database.db, params.id);
      const zip = await evidenceZip(ctx, id, async (manifest) => [
        {
          path: 'declaration.pdf',
          produce: async function* () {
            yield (await declarationPdf(ctx, id, undefined, manifest.digest)).pdf;
          },
        },
        json('signatures.json', await listSignatures(ctx, id)),
        json('keys.json', await signerKeys(ctx, id)),
      ]);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="evidence-election-${id}.zip"`);
      return { status: 200, body: zip };
    },
  };
}
