import type { AppContext } from './context';
import { createContext } from './bootstrap';
import { upsertStaff } from './db/seed';
import { EnvError, loadEnv } from './env';
import { createLogger } from './logger';

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

function help(): void {
  console.log('Usage: cli <command> [args]\n');
  for (const c of Object.values(COMMANDS)) console.log(`  ${c.usage.padEnd(40)} ${c.description}`);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    help();
    return name && name !== 'help' ? 2 : 0;
  }
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const ctx = await createContext({ env, logger: createLogger({ ...env, LOG_LEVEL: 'warn' }) });
  try {
    return await command.run(ctx, args);
  } finally {
    await ctx.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
