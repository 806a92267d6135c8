import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';

/**
 * The evidence pack's manifest, digest and signed text (docs/operations.md "After the close:
 * certifying the result"). Pure functions with no server dependency: the server, the offline
 * checker (`verify-evidence`) and the signing commands share them.
 */

export type Manifest = { election_id: number; files: Record<string, string>; digest: string };

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The files object serialised as JSON with its keys sorted and no spaces. */
export function canonicalFiles(files: Record<string, string>): string {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(files).sort()) sorted[key] = files[key]!;
  return JSON.stringify(sorted);
}

/** The pack's digest: SHA-256 (hex) of `canonicalFiles(files)`. */
export const packDigest = (files: Record<string, string>): string => sha256Hex(canonicalFiles(files));

export type SignatureKind = 'certify' | 'dispute';

/** The UTF-8 text a signer signs: `kura-declaration-v1\n{election_id}\n{digest}\n{kind}\n{statement}`. */
export const declarationText = (electionId: number, digest: string, kind: SignatureKind, statement: string): string =>
  `kura-declaration-v1\n${electionId}\n${digest}\n${kind}\n${statement}`;

/**
 * What `declaration.pdf`'s info dictionary says as its Subject: the election and the pack's digest,
 * so `verify-evidence` ties the file (outside `files`: it carries the signatures) to its pack.
 */
export const declarationSubject = (electionId: number, digest: string): string =>
  `kura-declaration-v1 election ${electionId} digest ${digest}`;

/**
 * `declaration.pdf` carries its own SHA-256 in its info dictionary (`/KuraSeal`, the text `kura-seal-sha256:…`): the
 * hash of the whole file with those 64 hex digits written as zeros. It is outside `files` (it
 * carries the signatures so far), so the seal is what makes one changed byte anywhere in it fail
 * `verify-evidence`. It proves integrity, not authorship: the signed digest is the authority.
 */
const SEAL_ZEROS = '0'.repeat(64);
const SEAL_PREFIX = '(kura-seal-sha256:';
export const SEAL_PLACEHOLDER = `kura-seal-sha256:${SEAL_ZEROS}`;
const SEAL_RE = /\(kura-seal-sha256:([0-9a-f]{64})\)/g;

/** Writes the seal into a rendered PDF that holds `SEAL_PLACEHOLDER` once. */
export function sealPdf(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const at = text.indexOf(`(${SEAL_PLACEHOLDER})`);
  if (at < 0 || text.indexOf(SEAL_PREFIX, at + 1) >= 0) throw new Error('the PDF must hold one seal placeholder');
  const sealed = Buffer.from(pdf);
  sealed.write(sha256Hex(pdf), at + SEAL_PREFIX.length, 'latin1');
  return sealed;
}

/** Whether a PDF's seal is its own hash: 'ok', 'missing' (no or several seals) or 'mismatch'. */
export function pdfSealState(pdf: Uint8Array): 'ok' | 'missing' | 'mismatch' {
  const text = Buffer.from(pdf).toString('latin1');
  const seals = [...text.matchAll(SEAL_RE)];
  if (seals.length !== 1 || text.split(SEAL_PREFIX).length !== 2) return 'missing';
  const seal = seals[0]!;
  const zeroed = Buffer.from(pdf);
  zeroed.write(SEAL_ZEROS, seal.index + SEAL_PREFIX.length, 'latin1');
  return sha256Hex(zeroed) === seal[1] ? 'ok' : 'mismatch';
}

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Parses a base64 raw 32-byte Ed25519 public key; null when it is not one. */
export function rawPublicKey(base64: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(base64)) return null;
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32) return null;
  try {
    createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    return raw;
  } catch {
    return null;
  }
}

/** A key's fingerprint: the first 16 hex digits of SHA-256 of the raw public key. */
export const fingerprintOf = (raw: Uint8Array): string => sha256Hex(raw).slice(0, 16);

/** Whether `signature` (base64) is the key's Ed25519 signature over `text` (UTF-8). */
export function verifyEd25519(publicKeyBase64: string, text: string, signatureBase64: string): boolean {
  const raw = rawPublicKey(publicKeyBase64);
  if (!raw || !/^[A-Za-z0-9+/]{86}==$/.test(signatureBase64)) return false;
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  try {
    return verifySignature(null, Buffer.from(text, 'utf8'), key, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}

/** A frozen roll's hash: SHA-256 (hex) of its member numbers, sorted as strings, each followed by `\n`. */
export function rollHash(memberNos: string[]): string {
  const hash = createHash('sha256');
  for (const no of [...memberNos].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) hash.update(`${no}\n`);
  return hash.digest('hex');
}
