import type { AppContext } from '../context';
import { readFile } from 'node:fs/promises';
import { callerPath } from './caller-path';
import { upsertStaff } from '../seed';
import { verifyAudit } from '../modules/declaration';
import { readAllStates } from '../modules/elections';
import { importMembers } from '../modules/members';

/**
 * Operator commands: `pnpm cli <command> [args]` (or `kura <command>` in the container:
 * docs/operations.md "Operator commands"). Each command gets a ready context (database open and migrated) and answers an exit
 * code. Add a command by adding an entry to COMMANDS.
 */
/** Where a command reads what must not be on its command line (a password). */
export type CommandIo = {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stderr?: NodeJS.WritableStream;
};

export type Command = {
  usage: string;
  description: string;
  run(ctx: AppContext, args: string[], io?: CommandIo): Promise<number>;
};

const PROCESS_IO: CommandIo = { stdin: process.stdin, stderr: process.stderr };

async function readStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** A prompt on a terminal that does not echo what is typed. */
function promptHidden(io: CommandIo, question: string): Promise<string> {
  const { stdin } = io;
  const stderr = io.stderr ?? process.stderr;
  stderr.write(question);
  stdin.setRawMode?.(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
    };
    function onData(chunk: string) {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          return resolve(value);
        }
        if (ch === '\u0003') {
          finish();
          return reject(new Error('Cancelled'));
        }
        value = ch === '\u007f' || ch === '\b' ? [...value].slice(0, -1).join('') : value + ch;
      }
    }
    stdin.on('data', onData);
  });
}

/**
 * A password never comes from the command line (the process list and the shell history keep
 * it): on a terminal it is typed twice at a prompt that does not echo; otherwise it is the first
 * line of standard input (`printf '%s\n' "$PASSWORD" | kura admin:create …`).
 */
async function readPassword(io: CommandIo): Promise<string | undefined> {
  if (io.stdin.isTTY) {
    const first = await promptHidden(io, 'Password (8+ characters): ');
    const again = await promptHidden(io, 'Repeat the password: ');
    if (first !== again) {
      console.error('The two passwords differ.');
      return undefined;
    }
    return first;
  }
  return (await readStdin(io.stdin)).toString('utf8').split(/\r?\n/)[0];
}

export const COMMANDS: Record<string, Command> = {
  'admin:create': {
    usage: 'admin:create <email> [--name <name>]',
    description:
      'Create an admin, or update the password of an existing one. The password is typed at a prompt or read from standard input, never given as an argument.',
    async run(ctx, [email, ...rest], io = PROCESS_IO) {
      const usage = 'Usage: admin:create <email> [--name <name>] (the password at the prompt, or on standard input)';
      if (!email || email.startsWith('-') || (rest.length > 0 && (rest[0] !== '--name' || rest.length < 2))) {
        if (rest.length > 0 && rest[0] !== '--name')
          console.error(
            'admin:create no longer takes the password as an argument: the process list and the shell history would keep it. Type it at the prompt, or pipe it on standard input.',
          );
        console.error(usage);
        return 2;
      }
      const password = await readPassword(io);
      if (!password || password.length < 8) {
        console.error('The password must be at least 8 characters.');
        console.error(usage);
        return 2;
      }
      const name = rest.slice(1).join(' ').trim();
      await upsertStaff(ctx, { email, password, role: 'admin', name: name || undefined });
      console.log(`Admin ${email.toLowerCase()} is ready.`);
      return 0;
    },
  },
  'agent:create': {
    usage: 'agent:create <email> [name]',
    description: 'Create an agent (observer) who signs in with an emailed code.',
    async run(ctx, [email, ...name]) {
      if (!email) {
        console.error('Usage: agent:create <email> [name]');
        return 2;
      }
      await upsertStaff(ctx, { email, role: 'agent', name: name.join(' ') || undefined });
      console.log(`Agent ${email.toLowerCase()} is ready.`);
      return 0;
    },
  },
  'members:import': {
    usage: 'members:import <file.csv | -> [--confirm-contact-changes]',
    description:
      'Import members (member_no,name,email,phone,branch); all or nothing, re-runs update by member number. "-" reads standard input. --confirm-contact-changes changes the phone or email of members who voted while voting is open.',
    async run(ctx, args) {
      const confirmContactChanges = args.includes('--confirm-contact-changes');
      const [file] = args.filter((a) => a !== '--confirm-contact-changes');
      if (!file) {
        console.error('Usage: members:import <file.csv | -> [--confirm-contact-changes]');
        return 2;
      }
      // "-": the CSV on standard input, so a file on the Docker host needs no copying into the
      // container: docker compose exec -T server kura members:import - < members.csv
      const csv = file === '-' ? await readStdin() : await readFile(callerPath(file));
      const result = await importMembers(ctx, { role: 'admin', id: null, name: 'CLI members:import', ip: '' }, csv, {
        confirmContactChanges,
      });
      for (const e of result.errors) console.error(`line ${e.line}: ${e.message}`);
      if (result.errors.length > 0) {
        console.error('Nothing was imported; fix the lines above and run the import again.');
        return 1;
      }
      console.log(`Imported ${file === '-' ? 'standard input' : file}: ${result.created} created, ${result.updated} updated.`);
      return 0;
    },
  },
  'audit:verify': {
    usage: 'audit:verify [--election <id>]',
    description:
      'Recompute every tally and the newest commitment from the ballots, for every election (archived ones too) or the one given; exit 1 on any mismatch, naming its election.',
    async run(ctx, args) {
      const usage = 'Usage: audit:verify [--election <id>]';
      const wanted = args.length === 0 ? undefined : args.length === 2 && args[0] === '--election' ? args[1]! : null;
      if (wanted === null || (wanted !== undefined && !/^[1-9][0-9]{0,9}$/.test(wanted))) {
        console.error(usage);
        return 2;
      }
      const all = (await readAllStates(ctx.database.db)).sort((a, b) => a.id - b.id);
      const chosen = wanted === undefined ? all : all.filter((e) => e.id === Number(wanted));
      if (chosen.length === 0) {
        console.error(wanted === undefined ? 'There is no election to audit.' : `There is no election ${wanted}.`);
        return 2;
      }
      let ok = true;
      for (const election of chosen) {
        const name = `election ${election.id} "${election.title}"`;
        console.log(`== ${name.charAt(0).toUpperCase()}${name.slice(1)}${election.archived ? ' (archived)' : ''}`);
        const report = await verifyAudit(ctx, election.id);
        for (const t of report.tallies) console.log(`position ${t.positionId}\tcandidate ${t.candidateId}\t${t.count}`);
        for (const note of report.notes) console.log(note);
        for (const problem of report.problems) console.error(`MISMATCH in ${name}: ${problem}`);
        console.log(report.ok ? `Audit of ${name} passed.` : `Audit of ${name} FAILED.`);
        ok &&= report.ok;
      }
      console.log(ok ? 'Audit passed.' : 'Audit FAILED.');
      return ok ? 0 : 1;
    },
  },
};
