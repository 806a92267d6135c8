// The server's bundle (with the workspace contract inlined; npm packages stay external), as
// `pnpm build` writes it to dist/ and the tests that start a real server process run it
// (test/server-bundle.ts): one set of options for both.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@kura/'));

/** Writes main.js, cli.js and pglite-worker.js (with source maps) into `outdir`. */
export async function bundleServer(outdir) {
  await build({
    absWorkingDir: new URL('.', import.meta.url).pathname,
    entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external,
    banner: {
      js: "import { createRequire as __kuraCreateRequire } from 'node:module'; const require = __kuraCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
