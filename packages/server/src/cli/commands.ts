import type { AppContext } from '../context';
import { readFile } from 'node:fs/promises';
import { upsertStaff } from '../db/seed';
import { verifyAudit } from '../modules/elections';
import { importMembers } from '../modules/members';

/**
 * Operator commands: `pnpm cli <command> [args]` (or `kura <command>` in the container:
 * docs/operations.md "Operator commands"). Each command gets a ready context (database open and migrated) and answers an exit
 * code. Add a command by adding an entry to COMMANDS.
 */
export type Command = {
  usage: string;
  description: string;
  run(ctx: AppContext, args: string[]): Promise<number>;
};

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const COMMANDS: Record<string, Command> = {
  'admin:create': {
    usage: 'admin:create <email> <password> [name]',
    description: 'Create an admin, or update the password of an existing one.',
    async run(ctx, [email, password, ...name]) {
      if (!email || !password || password.length < 8) {
        console.error('Usage: admin:create <email> <password (8+ characters)> [name]');
        return 2;
      }
      await upsertStaff(ctx.database.db, { email, password, role: 'admin', name: name.join(' ') || undefined });
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
      await upsertStaff(ctx.database.db, { email, role: 'agent', name: name.join(' ') || undefined });
      console.log(`Agent ${email.toLowerCase()} is ready.`);
      return 0;
    },
  },
  'members:import': {
    usage: 'members:import <file.csv | ->',
    description:
      'Import members (member_no,name,email,phone,branch); all or nothing, re-runs update by member number. "-" reads standard input.',
    async run(ctx, [file]) {
      if (!file) {
        console.error('Usage: members:import <file.csv | ->');
        return 2;
      }
      // "-": the CSV on standard input, so a file on the Docker host needs no copying into the
      // container: docker compose exec -T server kura members:import - < members.csv
      const csv = file === '-' ? await readStdin() : await readFile(file);
      const result = await importMembers(ctx, { role: 'admin', id: null, name: 'CLI members:import', ip: '' }, csv);
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
    usage: 'audit:verify',
    description: 'Recompute every tally and the newest commitment from the ballots; exit 1 on any mismatch.',
    async run(ctx) {
      const report = await verifyAudit(ctx);
      for (const t of report.tallies) console.log(`position ${t.positionId}\tcandidate ${t.candidateId}\t${t.count}`);
      for (const note of report.notes) console.log(note);
      for (const problem of report.problems) console.error(`MISMATCH: ${problem}`);
      console.log(report.ok ? 'Audit passed.' : 'Audit FAILED.');
      return report.ok ? 0 : 1;
    },
  },
};
