/** Writes main.js, cli.js and pglite-worker.js (with source maps) into `outdir` (bundle.mjs). */
export function bundleServer(outdir: string): Promise<void>;
