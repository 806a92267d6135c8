import type { AppContext } from '../context';
import { upsertStaff } from '../db/seed';

/**
 * Operator commands: `pnpm cli <command> [args]` (or `node packages/server/dist/cli.js` in the
 * container). Each command gets a ready context (database open and migrated) and answers an exit
 * code. Add a command by adding an entry to COMMANDS.
 */
export type Command = {
  usage: string;
  description: string;
  run(ctx: AppContext, args: string[]): Promise<number>;
};

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
};
