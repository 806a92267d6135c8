// Bundles the server (with the workspace contract inlined) into dist/; npm packages stay external.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@kura/'));

await build({
  entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
  outdir: 'dist',
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
