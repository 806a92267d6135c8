import { createContext } from './bootstrap';
import { COMMANDS } from './cli/commands';
import { STANDALONE_COMMANDS } from './cli/count';
import { loadEnvOrExit } from './env';
import { createLogger } from './logger';

/** Entry point of `pnpm cli`; the commands live in cli/commands.ts (and cli/count.ts, which needs no database). */
function help(): void {
  console.log('Usage: cli <command> [args]\n');
  for (const c of [...Object.values(COMMANDS), ...Object.values(STANDALONE_COMMANDS)])
    console.log(`  ${c.usage.padEnd(40)} ${c.description}`);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const standalone = name ? STANDALONE_COMMANDS[name] : undefined;
  if (standalone) return standalone.run(args);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    help();
    return name && name !== 'help' ? 2 : 0;
  }
  const env = loadEnvOrExit();
  // On the embedded database, refused (exit 1, one line saying why) while the server holds DATA_DIR.
  const ctx = await createContext({ env, logger: createLogger({ ...env, LOG_LEVEL: 'warn' }), holder: `the command ${name}` });
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
