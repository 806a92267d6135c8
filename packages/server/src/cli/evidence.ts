import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { declarationText } from '../evidence/digest';
import { verifyEvidence } from '../evidence/verify';

/**
 * `verify-evidence`, `keygen` and `sign` (docs/operations.md "After the close: certifying the
 * result"): like `count`, they need no database and no configuration.
 */

/** As cli/count.ts's StandaloneCommand (not imported: count.ts lists these commands). */
type Io = { out(line: string): void; err(line: string): void; stdin(): Promise<Buffer> };
type StandaloneCommand = { usage: string; description: string; run(args: string[], io?: Io): Promise<number> };

const defaultIo: Pick<Io, 'out' | 'err'> = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** A pack larger than this is refused before it is read (a 100,000-ballot pack is a few MB). */
export const MAX_PACK_BYTES = 512 * 1024 * 1024;

export const verifyEvidenceCommand: StandaloneCommand = {
  usage: 'verify-evidence <FILE.zip>',
  description: 'Check an evidence pack offline: files, digest, signatures, recount, roll, commitments',
  async run(args, io = { ...defaultIo, stdin: async () => Buffer.alloc(0) }) {
    const [file] = args;
    if (!file || args.length !== 1) {
      io.err('Usage: verify-evidence <FILE.zip>');
      return 2;
    }
    let bytes: Buffer;
    try {
      if ((await stat(file)).size > MAX_PACK_BYTES) {
        io.err(`${file} is larger than ${MAX_PACK_BYTES / 1024 / 1024} MiB`);
        return 1;
      }
      bytes = await readFile(file);
    } catch (err) {
      io.err(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    const report = verifyEvidence(bytes);
    for (const line of report.lines) io.out(`${line.ok ? 'ok  ' : 'FAIL'} ${line.check}: ${line.detail}`);
    const failed = report.lines.filter((l) => !l.ok);
    if (failed.length) {
      io.err(`The evidence pack FAILED ${failed.length} check(s): ${failed.map((l) => l.check).join(', ')}`);
      return 1;
    }
    io.out(`The evidence pack of election ${report.election_id} passed every check (digest ${report.digest}).`);
    return 0;
  },
};

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export const keygenCommand: StandaloneCommand = {
  usage: 'keygen --out <FILE>',
  description: 'Write a new Ed25519 signing key (mode 0600) and print its public key to register',
  async run(args, io = { ...defaultIo, stdin: async () => Buffer.alloc(0) }) {
    const out = option(args, '--out');
    if (!out) {
      io.err('Usage: keygen --out <FILE>');
      return 2;
    }
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    try {
      // wx: never overwrite an existing key.
      await writeFile(out, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      io.err(`Cannot write ${out}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    io.out(raw.toString('base64'));
    return 0;
  },
};

export const signCommand: StandaloneCommand = {
  usage: 'sign --key <FILE> --election <N> --digest <D> --kind certify|dispute --statement <TEXT>',
  description: 'Sign an election declaration with your key file; prints the signature to paste',
  async run(args, io = { ...defaultIo, stdin: async () => Buffer.alloc(0) }) {
    const keyFile = option(args, '--key');
    const election = Number(option(args, '--election'));
    const digest = option(args, '--digest');
    const kind = option(args, '--kind');
    const statement = option(args, '--statement');
    if (!keyFile || !Number.isInteger(election) || election < 1 || !digest || (kind !== 'certify' && kind !== 'dispute') || !statement) {
      io.err(`Usage: ${signCommand.usage}`);
      return 2;
    }
    if (!/^[0-9a-f]{64}$/.test(digest)) {
      io.err('The digest is 64 hex digits (GET elections/{id}/evidence/digest)');
      return 2;
    }
    let key;
    try {
      key = createPrivateKey(await readFile(keyFile));
      if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
    } catch (err) {
      io.err(`Cannot read the key ${keyFile}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    const signature = sign(null, Buffer.from(declarationText(election, digest, kind, statement), 'utf8'), key);
    io.err(`Public key: ${createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')}`);
    io.out(signature.toString('base64'));
    return 0;
  },
};
