import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canSign, declarationText, fingerprintOf, generateSigningKey, loadSigningKey, signText } from './signing';

const DIGEST = 'ab'.repeat(32);
const spki = (raw: string) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(raw, 'base64')]),
    format: 'der',
    type: 'spki',
  });

describe('signing the declaration in the browser', () => {
  it('the signed text is exactly kura-declaration-v1, the election, the digest, the kind and the statement', () => {
    expect(declarationText(7, DIGEST, 'dispute', 'Line one\nline two')).toBe(
      `kura-declaration-v1\n7\n${DIGEST}\ndispute\nLine one\nline two`,
    );
  });

  it('makes a key file that loads back to the same public key and signs what the server verifies', async () => {
    expect(await canSign()).toBe(true);
    const made = await generateSigningKey();
    expect(made.pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n$/);
    expect(made.publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(made.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const loaded = await loadSigningKey(made.pem);
    expect(loaded.publicKey).toBe(made.publicKey);
    expect(loaded.fingerprint).toBe(made.fingerprint);
    const text = declarationText(3, DIGEST, 'certify', 'Nimethibitisha — ✓');
    const signature = await signText(loaded.privateKey, text);
    expect(signature).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    // node:crypto, as the server and `kura verify-evidence` check it.
    expect(verify(null, Buffer.from(text, 'utf8'), spki(made.publicKey), Buffer.from(signature, 'base64'))).toBe(true);
    expect(verify(null, Buffer.from(`${text}\n`, 'utf8'), spki(made.publicKey), Buffer.from(signature, 'base64'))).toBe(false);
    // The loaded key cannot be exported again.
    await expect(crypto.subtle.exportKey('pkcs8', loaded.privateKey)).rejects.toThrow();
  });

  it('loads a key written by `kura keygen` (PKCS#8 PEM) with the fingerprint the server gives it', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
    const loaded = await loadSigningKey(String(privateKey.export({ format: 'pem', type: 'pkcs8' })));
    expect(loaded.publicKey).toBe(raw);
    const { createHash } = await import('node:crypto');
    expect(loaded.fingerprint).toBe(createHash('sha256').update(Buffer.from(raw, 'base64')).digest('hex').slice(0, 16));
    expect(await fingerprintOf(raw)).toBe(loaded.fingerprint);
  });

  it('refuses a file that is not an Ed25519 private key', async () => {
    await expect(loadSigningKey('hello')).rejects.toThrow();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    await expect(loadSigningKey(String(rsa))).rejects.toThrow();
  });
});
