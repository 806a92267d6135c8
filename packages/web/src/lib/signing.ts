/**
 * Signing the declaration in the browser (docs/screens.md "Declaration", docs/operations.md "After
 * the close: certifying the result"): an Ed25519 key pair made with WebCrypto, the private key
 * saved to the signer's device as a PKCS#8 PEM file (the format `kura keygen` writes, so either can
 * sign with the other's key) and loaded back to sign. The private key is never sent anywhere.
 */

export type SignatureKind = 'certify' | 'dispute';

/** The exact UTF-8 text a signer signs (docs/api.md "The declaration, signed, and the evidence pack"). */
export const declarationText = (electionId: number, digest: string, kind: SignatureKind, statement: string): string =>
  `kura-declaration-v1\n${electionId}\n${digest}\n${kind}\n${statement}`;

const ED25519 = { name: 'Ed25519' } as const;

const toBase64 = (bytes: ArrayBuffer | Uint8Array): string => {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (const b of view) s += String.fromCharCode(b);
  return btoa(s);
};
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
};
const fromBase64Url = (text: string) =>
  fromBase64(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  );

/** A key's fingerprint: the first 16 hex digits of SHA-256 of the raw 32-byte public key. */
export async function fingerprintOf(publicKey: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', fromBase64(publicKey)));
  return [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether this browser signs with Ed25519 (WebCrypto); the page says so when it does not. */
export async function canSign(): Promise<boolean> {
  try {
    await crypto.subtle.generateKey(ED25519, false, ['sign', 'verify']);
    return true;
  } catch {
    return false;
  }
}

const pem = (der: ArrayBuffer) =>
  `-----BEGIN PRIVATE KEY-----\n${toBase64(der)
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;

/** A new key pair: the PEM file to save and the public key (base64 of the raw 32 bytes) to register. */
export async function generateSigningKey(): Promise<{ pem: string; publicKey: string; fingerprint: string }> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKey = toBase64(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { pem: pem(await crypto.subtle.exportKey('pkcs8', pair.privateKey)), publicKey, fingerprint: await fingerprintOf(publicKey) };
}

export type LoadedKey = { privateKey: CryptoKey; publicKey: string; fingerprint: string };

/** Reads a key file (PKCS#8 PEM, Ed25519); throws when it is not one. */
export async function loadSigningKey(text: string): Promise<LoadedKey> {
  const body = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(text)?.[1];
  if (!body) throw new Error('not a PEM private key');
  const der = fromBase64(body.replace(/\s+/g, ''));
  const extractable = await crypto.subtle.importKey('pkcs8', der, ED25519, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', extractable);
  if (!jwk.x) throw new Error('no public key in the file');
  const publicKey = toBase64(fromBase64Url(jwk.x));
  // The key kept for signing cannot be exported again.
  const privateKey = await crypto.subtle.importKey('pkcs8', der, ED25519, false, ['sign']);
  return { privateKey, publicKey, fingerprint: await fingerprintOf(publicKey) };
}

/** The base64 Ed25519 signature of `text` (UTF-8). */
export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  return toBase64(await crypto.subtle.sign(ED25519, privateKey, new TextEncoder().encode(text)));
}
