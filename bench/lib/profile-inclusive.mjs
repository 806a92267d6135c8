// Inclusive (total) time per function of a V8 .cpuprofile, each sample counted once per function
// on its stack; percentages of the non-idle samples. Usage: node bench/lib/profile-inclusive.mjs FILE [top] [filter]
import { readFileSync } from 'node:fs';

const [file, topArg, filter] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const key = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
const incl = new Map();
let busy = 0;
for (const [id, us] of dt) {
  const name = byId.get(id).callFrame.functionName;
  if (name === '(idle)' || name === '(program)') continue;
  busy += us;
  const seen = new Set();
  for (let cur = id; cur; cur = parent.get(cur)) {
    const k = key(byId.get(cur).callFrame);
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + us);
  }
}
console.log(`busy ${(busy / 1e6).toFixed(2)} s`);
for (const [k, v] of [...incl]
  .filter(([k]) => !filter || k.includes(filter))
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(topArg ?? 40)))
  console.log(`${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`);
