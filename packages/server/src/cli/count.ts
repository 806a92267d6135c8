import { BltError, countBlt, CountError, MAX_BLT_BYTES, type BltCount } from '@kura/count';
import { readFile, stat } from 'node:fs/promises';
import { callerPath } from './caller-path';
import { keygenCommand, signCommand, verifyEvidenceCommand } from './evidence';

/**
 * `count [--json] [--seed S] <file.blt | ->`: recounts a BLT ballot file by single transferable
 * vote under the Scottish STV rules, with the same engine (@kura/count) the server declares
 * results with. It needs no database and no configuration: anyone can re-run a published count.
 * Files past the reader's limits (MAX_BLT_BYTES, candidates, seats: docs/decisions/008) are refused
 * before they are counted; the size before the file is read.
 */
export type StandaloneCommand = {
  usage: string;
  description: string;
  run(args: string[], io?: CountIo): Promise<number>;
};

export type CountIo = {
  out(line: string): void;
  err(line: string): void;
  stdin(): Promise<Buffer>;
  /** Where relative paths are resolved from (caller-path.ts); the process's own by default. */
  env?: NodeJS.ProcessEnv;
};

const defaultIo: CountIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  async stdin() {
    // Stops reading once past the limit: the caller refuses what it got.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > MAX_BLT_BYTES) break;
    }
    return Buffer.concat(chunks);
  },
};

const USAGE = 'count [--json] [--seed <text>] <file.blt | ->';

function describeRound(count: BltCount, round: BltCount['rounds'][number]): string {
  const name = (id: number) => count.candidates.find((c) => c.id === id)?.name ?? `#${id}`;
  const names = round.candidate_ids.map(name).join(', ');
  let text: string;
  if (round.round === 1) text = `first preferences${names ? `; elected: ${names}` : ''}`;
  else if (round.action === 'transfer') text = `surplus of ${names} transferred`;
  else if (round.action === 'exclude') text = `${names} excluded, papers transferred`;
  else text = `elected: ${names}`;
  if (round.tie) {
    const tied = round.tie.candidate_ids.map(name).join(', ');
    text +=
      round.tie.by === 'lot'
        ? ` (tie between ${tied}, equal at every stage: chosen by lot, seed "${round.tie.seed ?? ''}")`
        : ` (tie between ${tied}: decided by the votes at the end of round ${round.tie.stage})`;
  }
  return `Round ${round.round}: ${text}; non-transferable ${round.nontransferable}`;
}

function report(count: BltCount, firstPreferences: Map<number, number>, io: CountIo): void {
  const standing = count.candidates.filter((c) => !c.withdrawn);
  const final = count.rounds.at(-1)!.votes;
  const elected = new Set(count.elected.map((e) => e.name));
  const width = Math.max(9, ...standing.map((c) => c.name.length)) + 2;
  io.out(count.title || '(untitled)');
  for (const note of count.notes) io.out(`Note: ${note}`);
  io.out(`${count.seats} seat(s), ${count.ballots} valid ballots, quota ${count.quota} (Scottish STV)`);
  const withdrawn = count.candidates.filter((c) => c.withdrawn);
  if (withdrawn.length > 0) io.out(`Withdrawn: ${withdrawn.map((c) => c.name).join(', ')}`);
  io.out('');
  for (const round of count.rounds) io.out(describeRound(count, round));
  io.out('');
  io.out(`${'Candidate'.padEnd(width)}${'First'.padStart(10)}${'Final votes'.padStart(16)}`);
  for (const c of standing)
    io.out(
      `${c.name.padEnd(width)}${String(firstPreferences.get(c.id) ?? 0).padStart(10)}${(final[String(c.id)] ?? '').padStart(16)}${elected.has(c.name) ? '  elected' : ''}`,
    );
  io.out(`${'Non-transferable'.padEnd(width)}${''.padStart(10)}${count.nontransferable.padStart(16)}`);
  io.out('');
  io.out(`Elected: ${count.elected.map((e) => e.name).join(', ')}`);
}

export const countCommand: StandaloneCommand = {
  usage: USAGE,
  description: 'Recount a BLT ballot file by STV (Scottish rules; one seat: instant-runoff). Needs no database. "-" reads standard input.',
  async run(args, io = defaultIo) {
    let json = false;
    let seed: string | undefined;
    let file: string | undefined;
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a === '--json') json = true;
      else if (a === '--seed' && k + 1 < args.length) seed = args[++k];
      else if (a.startsWith('--') || file !== undefined) {
        io.err(`Usage: ${USAGE}`);
        return 2;
      } else file = a;
    }
    if (file === undefined) {
      io.err(`Usage: ${USAGE}`);
      return 2;
    }
    const tooLarge = () => {
      io.err(`${file}: larger than a ballot file may be (at most ${MAX_BLT_BYTES / 1024 / 1024} MiB)`);
      return 1;
    };
    let bytes: Buffer;
    try {
      const path = file === '-' ? '-' : callerPath(file, io.env);
      if (path !== '-' && (await stat(path)).size > MAX_BLT_BYTES) return tooLarge();
      bytes = path === '-' ? await io.stdin() : await readFile(path);
    } catch (error) {
      io.err(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      return 1;
    }
    if (bytes.length > MAX_BLT_BYTES) return tooLarge();
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      io.err(`${file}: not UTF-8 text`);
      return 1;
    }
    try {
      const { count, result } = countBlt(text, { seed });
      if (json) io.out(JSON.stringify(count, null, 2));
      else report(count, new Map(result.values.map((v) => [v.candidate_id, v.first_preferences])), io);
      return 0;
    } catch (error) {
      if (error instanceof BltError || error instanceof CountError) {
        io.err(`${file}: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};

/** Commands that run without a database or configuration (cli.ts runs them before loading either). */
export const STANDALONE_COMMANDS: Record<string, StandaloneCommand> = {
  count: countCommand,
  'verify-evidence': verifyEvidenceCommand,
  keygen: keygenCommand,
  sign: signCommand,
};
