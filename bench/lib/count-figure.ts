// Figure 8 (bench/run.mjs): the STV count of 1,000,000 ranked ballots, 15 candidates, 5 seats.
// Run by run.mjs as its own child process (`node --import tsx bench/lib/count-figure.ts`), so the
// peak resident memory it reports is this count's alone. Prints one JSON line.
//
// The ballots are generated deterministically (a seeded generator; the same every run): candidate
// k has popularity 1/(k+1), each voter ranks between 1 and 15 of them (a few candidates more often
// than all), drawn one after another in proportion to the popularity of those not yet ranked.
import { countStv, type StvBallot } from '../../packages/count/src/index';

const BALLOTS = Number(process.env.BENCH_COUNT_BALLOTS ?? 1_000_000);
const CANDIDATES = 15;
const SEATS = 5;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(20261125);
const popularity = Array.from({ length: CANDIDATES }, (_, k) => 1 / (k + 1));
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

const t0 = performance.now();
const ballots: StvBallot[] = new Array(BALLOTS);
const left = new Array<number>(CANDIDATES);
for (let b = 0; b < BALLOTS; b++) {
  // Length 1..15, skewed short: most voters rank a handful.
  const length = 1 + Math.min(CANDIDATES - 1, Math.floor(-Math.log(1 - random()) * 4));
  let pool = CANDIDATES;
  let weight = 0;
  for (let k = 0; k < CANDIDATES; k++) {
    left[k] = k;
    weight += popularity[k]!;
  }
  const ranking: number[] = [];
  for (let r = 0; r < length; r++) {
    let x = random() * weight;
    let j = 0;
    while (j < pool - 1 && x >= popularity[left[j]!]!) x -= popularity[left[j++]!]!;
    const k = left[j]!;
    ranking.push(k + 1);
    weight -= popularity[k]!;
    left[j] = left[--pool]!;
  }
  ballots[b] = { ranking };
}
const t1 = performance.now();
const rssBefore = process.memoryUsage().rss;
const cpu0 = process.cpuUsage();
const result = countStv({
  seats: SEATS,
  candidates: Array.from({ length: CANDIDATES }, (_, k) => ({ id: k + 1, name: `Candidate ${k + 1}` })),
  ballots,
});
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
const usage = process.resourceUsage();
console.log(
  JSON.stringify({
    ballots: BALLOTS,
    candidates: CANDIDATES,
    seats: SEATS,
    generateMs: Math.round(t1 - t0),
    countMs: Math.round(t2 - t1),
    // CPU time of the count: on a shared machine the wall time above also holds other processes' turns.
    countCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssBeforeCountMb: mb(rssBefore),
    peakRssMb: Math.round(usage.maxRSS / 1024),
    rounds: result.rounds.length,
    quota: result.quota,
    elected: result.elected,
    nontransferable: result.nontransferable,
  }),
);
