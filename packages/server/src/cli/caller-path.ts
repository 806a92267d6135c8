import { resolve } from 'node:path';

/**
 * A path given to `pnpm cli …` is relative to the folder the operator ran it from (docs/operations.md
 * "Operator commands"). pnpm runs the server package's script from packages/server, so the root
 * script hands the caller's folder on in KURA_CLI_CWD; pnpm's own INIT_CWD covers a run from inside
 * packages/server; the image's `kura` runs where it is started.
 */
export function callerPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.KURA_CLI_CWD || env.INIT_CWD || process.cwd(), path);
}
