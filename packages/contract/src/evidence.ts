import { z } from 'zod';
import { c, errors, meta } from './common';
import { SHIPPED_LANGUAGES } from './languages';
import { ElectionQuery, pathIdSchema } from './validation';
import { said } from './messages';

/** The declaration, signed, and the evidence pack (docs/api.md "The declaration, signed, and the evidence pack"). */

const IdParams = z.object({ id: pathIdSchema });
const data = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });

export const SigningKey = z.object({
  /** first 16 hex digits of SHA-256 of the raw public key */
  fingerprint: z.string(),
  /** base64 of the 32-byte Ed25519 key */
  public_key: z.string(),
  name: z.string(),
  role: z.enum(['admin', 'agent']),
  registered_at: z.string(),
});
export type SigningKey = z.infer<typeof SigningKey>;

export const SignatureKind = z.enum(['certify', 'dispute']);

export const Signature = z.object({
  election_id: z.number().int(),
  name: z.string(),
  role: z.enum(['admin', 'agent']),
  fingerprint: z.string(),
  kind: SignatureKind,
  statement: z.string(),
  /** base64 Ed25519 signature over `kura-declaration-v1\n{election_id}\n{digest}\n{kind}\n{statement}` */
  signature: z.string(),
  signed_at: z.string(),
});
export type Signature = z.infer<typeof Signature>;

export const EvidenceManifest = z.object({ digest: z.string(), files: z.record(z.string(), z.string()) });
export type EvidenceManifest = z.infer<typeof EvidenceManifest>;

export const PutSigningKeyBody = z.object({
  public_key: z
    .string({ required_error: said('field.isRequiredPlain', { field: 'public key' }) })
    .regex(/^[A-Za-z0-9+/]{43}=$/, said('field.ed25519Key')),
});

export const PostSignatureBody = z.object({
  kind: SignatureKind,
  statement: z
    .string({ required_error: said('field.isRequiredPlain', { field: 'statement' }) })
    .trim()
    .min(1, said('field.isRequiredPlain', { field: 'statement' }))
    .max(2000),
  signature: z
    .string({ required_error: said('field.isRequiredPlain', { field: 'signature' }) })
    .regex(/^[A-Za-z0-9+/]{86}==$/, said('field.ed25519Signature')),
});

export const evidenceRouter = c.router({
  putSigningKey: {
    method: 'PUT',
    path: '/staff/signing-key',
    summary: "Register (or replace) the caller's Ed25519 signing key",
    description:
      "The raw 32-byte public key in base64; the private key stays on the signer's device. Only a key registered before an election closes may sign that election. Logged.",
    body: PutSigningKeyBody,
    responses: { 200: data(SigningKey), ...errors(401, 403, 422) },
    metadata: meta('agent'),
  },
  getEvidenceDigest: {
    method: 'GET',
    path: '/elections/:id/evidence/digest',
    pathParams: IdParams,
    summary: "The evidence pack's manifest: each file's SHA-256 and the digest signers sign",
    description:
      '`digest` is the SHA-256 (hex) of `files` serialised as JSON with its keys sorted and no spaces. Fixed at the close; 403 before.',
    responses: { 200: data(EvidenceManifest), ...errors(403, 404) },
    metadata: meta('anyone'),
  },
  postSignature: {
    method: 'POST',
    path: '/elections/:id/signatures',
    pathParams: IdParams,
    summary: "Certify the result, or record a dispute, with a signature by the caller's registered key",
    description:
      "Verified against the caller's key registered before the close (403 otherwise) over the UTF-8 text `kura-declaration-v1\\n{election_id}\\n{digest}\\n{kind}\\n{statement}` (422 when it does not verify); one per signer and election (409); 403 before the close.",
    body: PostSignatureBody,
    responses: { 201: data(Signature), ...errors(401, 403, 404, 409, 422) },
    metadata: meta('agent'),
  },
  listSignatures: {
    method: 'GET',
    path: '/elections/:id/signatures',
    pathParams: IdParams,
    summary: "The election's signatures: who certified or disputed the result, with each statement",
    responses: { 200: data(z.array(Signature)), ...errors(403, 404) },
    metadata: meta('anyone'),
  },
  getDeclarationPdf: {
    method: 'GET',
    path: '/psk/results/declaration.pdf',
    query: ElectionQuery.extend({ lang: z.enum(SHIPPED_LANGUAGES).optional() }),
    summary:
      'The declaration as a PDF (A4), after the close: the result, turnout, the roll, the final commitment, the digest and the signatures so far',
    description:
      "In `lang` or the organisation's language. Public in every results-visibility mode once the election is closed (like `psk/results/final`); 403 before.",
    responses: {
      200: c.otherResponse({ contentType: 'application/pdf', body: z.unknown() }),
      ...errors(403, 404, 422),
    },
    metadata: meta('anyone'),
  },
  getEvidence: {
    method: 'GET',
    path: '/elections/:id/evidence',
    pathParams: IdParams,
    summary: 'The evidence pack (zip), after the close: check it offline with `kura verify-evidence`',
    description:
      '`manifest.json`, `declaration.pdf`, `results.json`, `roll.csv`, `ballots/{position_id}.blt`, `commitments.json`, `audit.json`, `claims.json`, `nominations.json`, `activity.csv`, `signatures.json`, `keys.json`. No phone, e-mail, IP address or ballot-to-voter link. 403 before the close.',
    responses: {
      200: c.otherResponse({ contentType: 'application/zip', body: z.unknown() }),
      ...errors(401, 403, 404),
    },
    metadata: meta('agent'),
  },
});
