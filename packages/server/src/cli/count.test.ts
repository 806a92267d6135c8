import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BLT_BYTES, MAX_CANDIDATES } from '@kura/count';
import { countCommand, type CountIo } from './count';
import { serverEntry } from '../../test/server-bundle';

const SERVER_CLI = await serverEntry('cli');

// The published count vectors live with the engine (packages/count/test/vectors).
const VECTORS = join(import.meta.dirname, '../../../count/test/vectors');
const expected = JSON.parse(readFileSync(join(VECTORS, 'expected.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const tmp = mkdtempSync(join(tmpdir(), 'kura-count-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CountIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: async () => Buffer.from(stdin) };
  const code = await countCommand.run(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cli count: recounting a BLT file', () => {
  it('--json prints the declared outcome of a published election, as API.md shapes it', async () => {
    const { code, out } = await run(['--json', join(VECTORS, 'Govan-2007.blt')]);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect({
      seats: json.seats,
      ballots: json.ballots,
      quota: json.quota,
      elected: json.elected,
      nontransferable: json.nontransferable,
    }).toEqual(expected['Govan-2007']);
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['title', 'seats', 'ballots', 'quota', 'elected', 'nontransferable', 'rounds']),
    );
    expect(json.title).toBe('GOVAN Ward');
    expect(json.rounds[0]).toMatchObject({ round: 1, action: 'elect' });
    for (const round of json.rounds) for (const v of Object.values(round.votes)) expect(v).toMatch(/^\d+\.\d{5}$/);
  });

  it('prints a readable report: rounds, first preferences, final votes, the elected', async () => {
    const { code, out } = await run([join(VECTORS, 'Calton-2007.blt')]);
    expect(code).toBe(0);
    expect(out).toContain('3 seat(s), 5199 valid ballots, quota 1300.00000 (Scottish STV)');
    expect(out).toContain('Round 2: surplus of George Redmond transferred');
    expect(out).toMatch(/Ruth Simpson\s+628\s+1393\.86735 {2}elected/);
    expect(out).toMatch(/Non-transferable\s+1205\.10743/);
    expect(out).toContain('Elected: George Redmond, Ruth Simpson, Alison E Thewliss');
  });

  it('reads standard input with "-", and names the line of a malformed ballot (exit 1)', async () => {
    expect((await run(['-'], readFileSync(join(VECTORS, '513.blt'), 'utf8'))).code).toBe(0);
    const bad = await run(['-'], '3 1\n1 1 2 0\n1 2 1 2 0\n0\n"A"\n"B"\n"C"\n');
    expect(bad.code).toBe(1);
    expect(bad.err).toBe('-: line 3: candidate 2 appears twice on this ballot');
  });

  it('reads a relative path from the folder the operator ran `pnpm cli` in, not packages/server', async () => {
    const io = (cwd: string): CountIo => ({ out: () => {}, err: () => {}, stdin: async () => Buffer.alloc(0), env: { KURA_CLI_CWD: cwd } });
    expect(await countCommand.run(['--json', '42.blt'], io(VECTORS))).toBe(0);
    // pnpm's INIT_CWD when run from inside packages/server; a missing file there is "no such file".
    const errors: string[] = [];
    const elsewhere: CountIo = { ...io(''), err: (l) => errors.push(l), env: { INIT_CWD: tmp } };
    expect(await countCommand.run(['42.blt'], elsewhere)).toBe(1);
    expect(errors).toEqual(['42.blt: no such file']);
  });

  it('refuses a file that is not UTF-8, a missing file and bad arguments', async () => {
    const latin1 = join(tmp, 'latin1.blt');
    writeFileSync(latin1, Buffer.from('2 1\n1 1 0\n0\n"Jos\xe9"\n"B"\n', 'latin1'));
    expect(await run([latin1])).toMatchObject({ code: 1, err: `${latin1}: not UTF-8 text` });
    expect(await run([join(tmp, 'none.blt')])).toMatchObject({ code: 1 });
    expect((await run([])).code).toBe(2);
    expect((await run(['--bogus', 'x.blt'])).code).toBe(2);
  });

  it('runs through the real entry point without a database or configuration', async () => {
    // NODE_ENV=production without SMTP_URL or BALLOT_KEY would stop any command that loads the configuration.
    const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const proc = spawn(process.execPath, [SERVER_CLI, 'count', '--json', join(VECTORS, 'weak-defeat.blt')], {
        cwd: join(import.meta.dirname, '../..'),
        env: { PATH: process.env.PATH, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
      proc.once('exit', (code) => resolve({ code, output }));
    });
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(result.output)).toMatchObject({ elected: expected['weak-defeat']!.elected, nontransferable: '6.00000' });
  });

  it('refuses the hostile 3,000-candidate file of issue 36 at once, and a file past the size limit unread', async () => {
    const hostile = join(tmp, 'hostile.blt');
    writeFileSync(hostile, ['3000 1', '0', ...Array.from({ length: 3000 }, (_, k) => `"C${k + 1}"`), '"hostile"', ''].join('\n'));
    expect(await run(['--json', hostile])).toMatchObject({
      code: 1,
      out: '',
      err: `${hostile}: line 1: 3000 candidates are more than this reader takes (at most ${MAX_CANDIDATES})`,
    });
    // A sparse file one byte past the limit: refused by its size, before it is read.
    const huge = join(tmp, 'huge.blt');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_BLT_BYTES + 1);
    expect(await run([huge])).toMatchObject({ code: 1, err: `${huge}: larger than a ballot file may be (at most 64 MiB)` });
    const err: string[] = [];
    const io: CountIo = { out: () => {}, err: (l) => err.push(l), stdin: async () => Buffer.alloc(MAX_BLT_BYTES + 1, 32) };
    expect(await countCommand.run(['-'], io)).toBe(1);
    expect(err).toEqual(['-: larger than a ballot file may be (at most 64 MiB)']);
  });

  it('reads a file with text after the title (the ERBS M135 shape): ignored, and noted in --json and the report', async () => {
    const m135 = join(tmp, 'M135-shaped.blt');
    const plain = ['3 1', '2 1 0', '1 2 3 0', '0', '"Ann"', '"Bob"', '"Cat"', '"M135"'];
    writeFileSync(m135, [...plain, '"Brian Wichmann, ERBS validation data"', 'First Prefs 2 1 0', ''].join('\n'));
    const json = await run(['--json', m135]);
    expect(json.code, json.err).toBe(0);
    const parsed = JSON.parse(json.out);
    expect(parsed).toMatchObject({ title: 'M135', elected: [{ name: 'Ann', votes: '2.00000' }] });
    expect(parsed.notes).toEqual(['text after the title (lines 9 to 10) is not part of the election and was ignored']);
    const text = await run([m135]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Note: text after the title (lines 9 to 10) is not part of the election and was ignored');
    // The same ballots without the tail: no note.
    expect(JSON.parse((await run(['--json', '-'], plain.join('\n'))).out).notes).toEqual([]);
  });
});
