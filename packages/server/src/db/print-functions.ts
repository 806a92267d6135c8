/**
 * `pnpm --filter @kura/server db:functions [name…]`: prints the statements that define the SQL
 * functions declared in schema/functions.ts (all, or those named), for a new migration.
 */
import { functionSql, sqlFunctions } from './schema/functions';

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !sqlFunctions.some((fn) => fn.name === name));
if (unknown.length) {
  process.stderr.write(`No declared function named ${unknown.join(', ')} (declared: ${sqlFunctions.map((fn) => fn.name).join(', ')})\n`);
  process.exitCode = 1;
} else {
  for (const fn of sqlFunctions) if (!wanted.length || wanted.includes(fn.name)) process.stdout.write(functionSql(fn));
}
