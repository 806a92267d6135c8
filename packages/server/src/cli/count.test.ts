import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countCommand, type CountIo } from './count';

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
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'count', '--json', join(VECTORS, 'weak-defeat.blt')], {
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
});
