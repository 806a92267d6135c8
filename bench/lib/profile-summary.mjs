// Summarises a V8 .cpuprofile (from BENCH_PROFILE=1): self time by function and by package.
// Usage: node bench/lib/profile-summary.mjs bench/.profiles/<file>.cpuprofile [top]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++)
  dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const selfByFn = new Map();
const selfByPkg = new Map();
const pkgOf = (url) => {
  if (!url) return '(native/gc/idle)';
  const m = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) ?? /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('packages/server/dist')) return 'kura server';
  if (url.startsWith('node:')) return 'node core';
  return url.split('/').slice(-2).join('/');
};
for (const [id, us] of dt) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anonymous)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  selfByFn.set(key, (selfByFn.get(key) ?? 0) + us);
  const pkg = ['(idle)', '(program)', '(garbage collector)'].includes(cf.functionName) ? cf.functionName : pkgOf(cf.url);
  selfByPkg.set(pkg, (selfByPkg.get(pkg) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by package:');
for (const [k, v] of [...selfByPkg].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(v)}  ${k}`);
console.log('\nself time by function:');
for (const [k, v] of [...selfByFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
