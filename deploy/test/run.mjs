#!/usr/bin/env node
// `pnpm test:docker`: the on-premises deployment, run for real as docs/operations.md "On-premises with Docker"
// tells an operator to. Needs root and a Docker engine (started here if it is installed but not
// running). Steps, each printed as it passes or fails:
//   .env.example as shipped stops `up` with a message (no restart loop); a generated .env whose
//   database password is full of / @ # + % : ? & = characters; `up -d --build`; health; the admin
//   signs in through a real SMTP server on this host; members imported with the documented
//   operator command; voting on; a member signs in with a code sent through an SMS webhook on this
//   host and votes; `restart` and the vote is still counted; backup with the documented pg_dump
//   command; `down -v`; restore into a fresh stack; the vote is still there and audit:verify
//   passes; the scale profile with 2 replicas behind the proxy and Redis: a vote through one
//   replica reaches a live Socket.IO watcher on the other, long-polling sticks to one replica
//   through the proxy, WebSocket passes through it; the schedule (PUT election opens_at/closes_at)
//   opens and closes the election exactly once across the 2 replicas; the realtime profile as configured
//   (`docker compose config`, and the proxy's `caddy adapt` with KURA_SOCKET_UPSTREAM=realtime:
//   /socket.io/* to the realtime replicas, the rest to server; none started); HTTPS at the proxy with a local certificate:
//   Secure cookies and HSTS there, neither on plain HTTP. Then everything is torn down.
// Base images: pulled where Docker Hub answers, else stand-ins built from Debian packages
// (deploy/test/standins.sh, cached). The closing line is "N passed, N failed".
// Environment: KURA_DOCKER_OPTIONAL=1 turns "no Docker engine can run here" into a skip (CI);
// KURA_DOCKER_KEEP=1 leaves the stack up after a failure for a look. `--prepare` only starts the
// engine and makes the base images (writing what it found to KURA_DOCKER_PREPARED, which the run
// then reads): .ci/run starts it early in the background, so the network- and disk-bound image
// work overlaps the test suites.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const requireServer = createRequire(join(ROOT, 'packages/server/package.json'));
const { SMTPServer } = requireServer('smtp-server');
const YAML = requireServer('yaml');
const { io } = createRequire(join(ROOT, 'package.json'))('socket.io-client');

const T0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const say = (line) => console.log(`[${secs(Date.now() - T0).padStart(6)}] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let passed = 0;
let failed = 0;
const timings = {};

function fail(message) {
  throw new Error(message);
}
function check(ok, message) {
  if (!ok) fail(message);
}
/** Set once the stack exists: what a failed step prints besides its own message (the database's last log lines). */
let diagnose = () => '';

async function step(name, fn) {
  const t = Date.now();
  try {
    const note = await fn();
    passed++;
    timings[name] = Date.now() - t;
    say(`ok   ${name} (${secs(Date.now() - t)})${note ? ` — ${note}` : ''}`);
  } catch (error) {
    failed++;
    say(`FAIL ${name}: ${error instanceof Error ? error.message : error}`);
    try {
      const more = diagnose();
      if (more) say(more);
    } catch {
      // a diagnosis that fails must not hide the failure itself
    }
    throw error;
  }
}

/**
 * The proxy's routes as `caddy adapt` makes them of deploy/Caddyfile: for /socket.io/* and for the
 * rest, the DNS name of the replicas and the stickiness cookie.
 */
function proxyRoutes(adapted) {
  const routes = Object.values(JSON.parse(adapted).apps.http.servers)[0].routes;
  const upstreamOf = (route) => {
    const proxy = route.handle[0].routes[0].handle.find((h) => h.handler === 'reverse_proxy');
    return { name: proxy.dynamic_upstreams.name, cookie: proxy.load_balancing.selection_policy.name };
  };
  const socket = routes.find((r) => r.match?.some((m) => m.path?.includes('/socket.io/*')));
  const rest = routes.find((r) => !r.match);
  return { socket: socket && upstreamOf(socket), rest: rest && upstreamOf(rest) };
}

// ---- Docker engine and compose ------------------------------------------------------------

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...opts });
  return { code: r.status ?? (r.error ? 127 : 1), out: r.stdout ?? '', err: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}
const has = (cmd) => run('sh', ['-c', `command -v ${cmd}`]).code === 0;
const engineUp = () => run('docker', ['info', '--format', '{{.ServerVersion}}']).code === 0;

async function ensureEngine() {
  const missing = ['docker', 'dockerd', 'docker-compose', 'debootstrap'].filter((c) => !has(c));
  if (missing.length > 0 && process.getuid?.() === 0 && has('apt-get') && !(has('docker') && engineUp())) {
    say(`installing Debian's docker.io, docker-compose and debootstrap (missing: ${missing.join(', ')})`);
    run('sh', [
      '-c',
      'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io docker-compose debootstrap >/dev/null',
    ]);
  }
  if (!has('docker')) return 'no docker command (apt-get install docker.io)';
  if (engineUp()) return undefined;
  if (process.getuid?.() !== 0) return 'the Docker engine is not running and starting it needs root';
  if (!has('dockerd')) return 'the Docker engine is not running and dockerd is not installed (apt-get install docker.io)';
  say('starting dockerd (storage driver overlay2)');
  const child = spawn('sh', ['-c', 'exec dockerd --storage-driver=overlay2 >>/var/log/kura-dockerd.log 2>&1'], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  for (let i = 0; i < 60; i++) {
    await sleep(500);
    if (engineUp()) return undefined;
    if (child.exitCode !== null) break;
  }
  return `dockerd did not start (see /var/log/kura-dockerd.log: ${run('tail', ['-n', '3', '/var/log/kura-dockerd.log']).out.trim().replace(/\n/g, ' | ')})`;
}

function composeCommand() {
  if (run('docker', ['compose', 'version']).code === 0)
    return { cmd: 'docker', pre: ['compose'], name: `docker compose (v2) ${run('docker', ['compose', 'version', '--short']).out.trim()}` };
  if (has('docker-compose'))
    return { cmd: 'docker-compose', pre: [], name: `docker-compose (v1) ${run('docker-compose', ['version', '--short']).out.trim()}` };
  return undefined;
}

// ---- Sinks on this host, reachable from the containers as host.docker.internal --------------

async function startSmtpSink() {
  const mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: server.server.address().port,
    async codeFor(to, since, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const mail = [...mails].reverse().find((m) => m.at >= since && m.to.includes(to.toLowerCase()));
        const code =
          mail &&
          /security code is (\d{6})/.exec(
            mail.raw
              .split(/\r?\n\r?\n/)
              .slice(1)
              .join('\n'),
          )?.[1];
        if (code) return code;
        await sleep(200);
      }
      fail(`no mail with a code reached the SMTP sink for ${to} within ${timeoutMs / 1000}s`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function startSmsSink() {
  const texts = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        const { to, message } = JSON.parse(body);
        texts.push({ to, message, at: Date.now() });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: server.address().port,
    async codeSince(since, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const text = [...texts].reverse().find((t) => t.at >= since);
        const code = text && /\b(\d{6})\b/.exec(text.message)?.[1];
        if (code) return code;
        await sleep(200);
      }
      fail(`no text reached the SMS webhook sink within ${timeoutMs / 1000}s`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A free port for the stack to publish, chosen below the kernel's ephemeral range. The stack binds
 * it only after its image build, tens of seconds later; a port from the ephemeral range (listen(0))
 * could meanwhile be handed to anything else on the host that asks for any port (CI runs the browser
 * suite beside this test: its servers, SMTP sinks and Chromium do), and `up` then failed with
 * "address already in use". Below the range, nothing is given a port it did not name.
 */
const EPHEMERAL_LOW = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
const portIsFree = (port) =>
  new Promise((resolve) => {
    const s = createNetServer();
    s.once('error', () => resolve(false));
    s.listen(port, '0.0.0.0', () => s.close(() => resolve(true)));
  });
const takenHere = new Set();
async function freePort() {
  const low = Math.max(1024, Math.min(EPHEMERAL_LOW, 32768) - 12000);
  for (let i = 0; i < 200; i++) {
    const port = low + Math.floor(Math.random() * (Math.min(EPHEMERAL_LOW, 32768) - low));
    if (!takenHere.has(port) && (await portIsFree(port))) {
      takenHere.add(port);
      return port;
    }
  }
  fail(`no free port below the ephemeral range (${EPHEMERAL_LOW})`);
}

// ---- HTTP as a browser would: a cookie jar and the XSRF double-submit ------------------------

class Client {
  constructor(base) {
    this.base = base;
    this.jar = new Map();
    this.token = undefined;
  }
  keep(res) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  async call(method, path, body) {
    const headers = {};
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.jar.has('XSRF-TOKEN')) headers['x-xsrf-token'] = decodeURIComponent(this.jar.get('XSRF-TOKEN'));
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    this.keep(res);
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  }
  /** A GET whose answer is a file: status, content type and bytes. */
  async bytes(path) {
    const headers = {};
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(`${this.base}${path}`, { headers, redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
  }
  async expect(status, method, path, body) {
    const r = await this.call(method, path, body);
    check(r.status === status, `${method} ${path} answered ${r.status}, expected ${status}: ${r.text.slice(0, 300)}`);
    return r.json;
  }
}

async function adminSignIn(base, smtp, email, password) {
  const c = new Client(base);
  await c.expect(204, 'GET', '/sanctum/csrf-cookie');
  const since = Date.now();
  await c.expect(200, 'POST', '/api/v1/admin/login', { email, password });
  const code = await smtp.codeFor(email, since);
  const session = await c.expect(200, 'POST', '/api/v1/verify/admin', { token: code });
  c.token = session.bearer_token;
  check(c.token, 'no bearer_token in the admin session');
  return c;
}

async function voterSignIn(base, sms, memberNo) {
  const c = new Client(base);
  await c.expect(204, 'GET', '/sanctum/csrf-cookie');
  const since = Date.now();
  await c.expect(200, 'POST', '/api/v1/verify/phone', { unique_id: memberNo, consent: true });
  const code = await sms.codeSince(since);
  const session = await c.expect(200, 'POST', '/api/v1/verify/sms', { token: code });
  c.token = session.bearer_token;
  check(c.token, 'no bearer_token in the voter session');
  return c;
}

/** The voter's first eligible position and its first candidate; casts the vote. */
async function castVote(voter) {
  const groups = (await voter.expect(200, 'GET', '/api/v1/psk/candidates/v2')).data;
  const group = groups.find((g) => g.candidates.length > 0);
  check(group, 'the voter has no position with candidates');
  const candidate = group.candidates[0];
  const answer = await voter.expect(201, 'POST', '/api/v1/psk/vote', { candidates: { [group.position_id]: candidate.id } });
  const vvpat = answer.receipts?.[0]?.vvpat;
  check(vvpat, 'no receipt in the vote answer');
  return { positionId: group.position_id, candidateId: candidate.id, vvpat };
}

async function receiptRecorded(base, vvpat, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = await fetch(`${base}/api/v1/psk/receipt/${encodeURIComponent(vvpat)}`).catch((e) => ({ status: String(e) }));
    if (last.status === 200 && (await last.json()).recorded === true) return true;
    await sleep(300);
  }
  fail(`receipt ${vvpat} not recorded (last answer ${last?.status})`);
}

async function candidateCount(admin, positionId, candidateId) {
  const groups = (await admin.expect(200, 'GET', '/api/v1/agent/results')).data.data;
  const group = groups.find((g) => g.position_id === positionId);
  return group?.values.find((v) => v.candidate_id === candidateId)?.count ?? 0;
}

function httpsGet(port, path, ca) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, servername: 'localhost', headers: { host: 'localhost' }, ca, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

// ---- Base images ------------------------------------------------------------------------------

const REAL_IMAGES = ['node:24-bookworm-slim', 'postgres:16-alpine', 'redis:7-alpine', 'caddy:2'];

/**
 * The base images: pulled where Docker Hub answers (`images` undefined: the compose file's own),
 * else the Debian stand-ins (deploy/test/standins.sh, cached in /var/cache/kura-docker).
 */
async function baseImages() {
  const real = REAL_IMAGES;
  const pulled = run('timeout', ['60', 'docker', 'pull', real[0]]);
  if (pulled.code === 0) {
    for (const image of real.slice(1)) check(run('docker', ['pull', image]).code === 0, `docker pull ${image} failed`);
    return { images: undefined, note: `pulled ${real.join(', ')}` };
  }
  const r = run('bash', [join(ROOT, 'deploy/test/standins.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
  check(r.code === 0, 'building the stand-in images failed');
  const [node, postgres, redis, caddy] = r.out.trim().split('\n');
  return {
    images: { node, postgres, redis, caddy },
    note: `Docker Hub unreachable (${pulled.err.trim().split('\n').pop()}); STAND-INS from Debian bookworm packages: ${real[0]} → ${node} (Node ${run('docker', ['run', '--rm', node, 'node', '--version']).out.trim()} from the npm registry); ${real[1]} → ${postgres} (PostgreSQL 15); ${real[2]} → ${redis} (Redis 7.0); ${real[3]} → ${caddy} (Caddy 2.6)`,
  };
}

/**
 * `--prepare` writes what baseImages() found to the file KURA_DOCKER_PREPARED names; the run reads
 * it back, if every image it names is still in the engine (else it makes them itself).
 */
function readPrepared() {
  const file = process.env.KURA_DOCKER_PREPARED;
  if (!file || !existsSync(file)) return undefined;
  const base = JSON.parse(readFileSync(file, 'utf8'));
  const named = base.images ? Object.values(base.images) : REAL_IMAGES;
  return named.every((image) => run('docker', ['image', 'inspect', image]).code === 0) ? base : undefined;
}

/** `node deploy/test/run.mjs --prepare`: only the engine and the base images, for a later run. */
async function prepare() {
  const problem = await ensureEngine();
  if (problem) return say(`prepare: nothing prepared (${problem})`);
  const base = await baseImages();
  if (process.env.KURA_DOCKER_PREPARED) writeFileSync(process.env.KURA_DOCKER_PREPARED, JSON.stringify(base));
  say(`prepare: ${base.note}`);
}

// ---- The run --------------------------------------------------------------------------------

async function main() {
  const optional = process.env.KURA_DOCKER_OPTIONAL === '1';
  const skip = (reason) => {
    console.log(`test:docker skipped: ${reason}`);
    console.log('0 passed, 0 failed, 1 skipped');
    process.exit(optional ? 0 : 1);
  };
  const engineProblem = await ensureEngine();
  if (engineProblem) skip(engineProblem);
  const compose = composeCommand();
  if (!compose) skip('neither `docker compose` nor `docker-compose` is installed (apt-get install docker-compose)');
  say(`Docker engine ${run('docker', ['info', '--format', '{{.ServerVersion}}']).out.trim()}; compose: ${compose.name}`);

  // Base images: the real ones where a registry answers, stand-ins otherwise; already there when
  // `--prepare` made them in the background (.ci/run starts it early, beside the CPU-bound suites).
  let images;
  await step('base images', async () => {
    const prepared = readPrepared();
    const base = prepared ?? (await baseImages());
    images = base.images;
    return prepared ? `${base.note} (prepared in the background by --prepare)` : base.note;
  });

  // A copy of the repository as a fresh clone has it (tracked and new files; nothing ignored).
  const work = mkdtempSync(join(tmpdir(), 'kura-docker-'));
  const app = join(work, 'app');
  mkdirSync(app);
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)));
  for (const f of files) cpSync(join(ROOT, f), join(app, f), { recursive: true });
  const project = `kuradt${process.pid}`;
  // Test-only overrides: the stand-in images, the test's own image tag (never the operator's
  // kura:latest), and host.docker.internal for the sinks on this host. Nothing else.
  const override = join(work, 'test-override.yml');
  const lines = [
    'services:',
    '  server:',
    '    image: kura-test:latest',
    '    extra_hosts:',
    '      - "host.docker.internal:host-gateway"',
  ];
  if (images) {
    lines.push('    build:', '      args:', `        NODE_IMAGE: ${images.node}`);
    lines.push(
      '  postgres:',
      `    image: ${images.postgres}`,
      '  redis:',
      `    image: ${images.redis}`,
      '  proxy:',
      `    image: ${images.caddy}`,
    );
  }
  writeFileSync(override, `${lines.join('\n')}\n`);
  // COMPOSE_PROFILES comes from .env, as docs/operations.md tells operators (the environment would win).
  const env = { ...process.env, COMPOSE_FILE: ['docker-compose.yml', override].join(':'), COMPOSE_PROJECT_NAME: project };
  delete env.COMPOSE_PROFILES;
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const dc = (args, opts = {}) => run(compose.cmd, [...compose.pre, ...args], { cwd: app, env, ...opts });
  const dcOk = (args, opts = {}) => {
    const r = dc(args, opts);
    check(
      r.code === 0,
      `${compose.cmd} ${[...compose.pre, ...args].join(' ')} exited ${r.code}: ${(r.err || r.out).trim().split('\n').slice(-8).join(' | ')}`,
    );
    return r;
  };
  const containers = (service) =>
    run('docker', [
      'ps',
      '-q',
      '--filter',
      `label=com.docker.compose.project=${project}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
    ])
      .out.trim()
      .split('\n')
      .filter(Boolean);
  diagnose = () => {
    const pg = dc(['logs', '--no-color', '--tail', '40', 'postgres']);
    const oom = run('sh', ['-c', 'dmesg 2>/dev/null | grep -i -E "out of memory|oom-kill|killed process" | tail -5']);
    return `postgres's last log lines:\n${(pg.out + pg.err).trim()}${oom.out.trim() ? `\nkernel: ${oom.out.trim()}` : ''}`;
  };
  const health = (id) =>
    run('docker', ['inspect', '-f', '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}', id]).out.trim();
  const ipOf = (id) => run('docker', ['inspect', '-f', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', id]).out.trim();
  async function healthy(service, count = 1, timeoutMs = 180_000) {
    const end = Date.now() + timeoutMs;
    let states = [];
    while (Date.now() < end) {
      const ids = containers(service);
      states = ids.map(health);
      if (ids.length === count && states.every((s) => s === 'healthy')) return ids;
      await sleep(1000);
    }
    // Each container's own health-check log (the probe's last outputs and exit codes) beside its
    // last lines: which probe failed and how says more than the state alone.
    const logs = containers(service)
      .map((id) => {
        const probe = run('docker', ['inspect', '--format', '{{json .State.Health}}', id]).out.trim();
        const tail = run('docker', ['logs', '--tail', '15', id]);
        return `${id.slice(0, 12)} health: ${probe}\n${tail.out}${tail.err}`;
      })
      .join('\n');
    fail(`${service}: ${count} healthy containers expected, states [${states.join(', ')}] after ${timeoutMs / 1000}s\n${logs}`);
  }

  const smtp = await startSmtpSink();
  const sms = await startSmsSink();
  const httpPort = await freePort();
  const httpsPort = await freePort();
  const base = `http://127.0.0.1:${httpPort}`;
  // A password full of the characters that break a URL; no "$" (compose expands it) or quotes.
  const password = `p@ss/w#rd+%2F:?&=~!${randomBytes(6).toString('base64url')}`;
  const adminEmail = 'returning.officer@example.org';
  const adminPassword = `Adm1n/@#+${randomBytes(6).toString('hex')}`;
  const setEnv = (text, values) => {
    let out = text;
    for (const [k, v] of Object.entries(values)) {
      const re = new RegExp(`^#?${k}=.*$`, 'm');
      out = re.test(out) ? out.replace(re, () => `${k}=${v}`) : `${out}${k}=${v}\n`;
    }
    return out;
  };
  const example = readFileSync(join(app, '.env.example'), 'utf8');
  let dotenv = setEnv(example, {
    POSTGRES_PASSWORD: password,
    BALLOT_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: `smtp://host.docker.internal:${smtp.port}`,
    MAIL_FROM: 'Kura Test <elections@example.org>',
    SMS_PROVIDER: 'webhook',
    SMS_WEBHOOK_URL: `http://host.docker.internal:${sms.port}/sms`,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    KURA_PORT: String(httpPort),
    KURA_HTTPS_PORT: String(httpsPort),
    // docs/operations.md settings that must reach the server through .env: the demo election gives
    // candidates; a mixer batch of 1 publishes a single ballot at once.
    SEED_DEMO: '1',
    MIX_MIN_BATCH: '1',
    MIX_INTERVAL_MS: '200',
    LOG_LEVEL: 'info',
  });
  const writeEnv = () => writeFileSync(join(app, '.env'), dotenv);
  let ok = false;
  try {
    await step('.env.example as shipped: `up` refuses at once, naming the missing setting', async () => {
      writeFileSync(join(app, '.env'), example);
      const r = dc(['up', '-d', '--no-build']);
      check(r.code !== 0, '`up` with the bare .env.example succeeded');
      check(
        /set (POSTGRES_PASSWORD|BALLOT_KEY|SESSION_SECRET|SMTP_URL) in \.env/.test(r.err + r.out),
        `no message naming the setting: ${r.err.trim().slice(-300)}`,
      );
      check(containers('server').length === 0 && containers('postgres').length === 0, 'containers were started');
      return (r.err + r.out).trim().split('\n').pop();
    });

    writeEnv();
    await step('docker compose up -d --build (generated .env, password with / @ # + % : ? & =)', async () => {
      const t = Date.now();
      dcOk(['up', '-d', '--build']);
      timings.build = Date.now() - t;
      await healthy('postgres');
      await healthy('server');
      const ready = await fetch(`${base}/readyz`);
      check(ready.ok, `/readyz through the proxy answered ${ready.status}`);
      return `image built and started in ${secs(timings.build)}`;
    });

    const admin = await (async () => {
      let c;
      await step('admin signs in: password, then the code mailed through the SMTP sink on the host', async () => {
        c = await adminSignIn(base, smtp, adminEmail, adminPassword);
      });
      return c;
    })();

    await step("the web app's scripts through the proxy: brotli or gzip as the browser accepts, compressed at build", async () => {
      const shell = await (await fetch(`${base}/sign-in`)).text();
      const script = shell.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      check(script, `no script in the shell: ${shell.slice(0, 200)}`);
      const plain = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'identity' } });
      check(plain.ok && !plain.headers.get('content-encoding'), `identity: ${plain.status} ${plain.headers.get('content-encoding')}`);
      const size = (await plain.arrayBuffer()).byteLength;
      const sent = {};
      for (const encoding of ['br', 'gzip']) {
        const res = await fetch(`${base}${script}`, { headers: { 'accept-encoding': `${encoding}, identity;q=0.1` } });
        check(res.headers.get('content-encoding') === encoding, `${encoding} asked, ${res.headers.get('content-encoding')} sent`);
        check(/accept-encoding/i.test(res.headers.get('vary') ?? ''), `no Vary: Accept-Encoding (${res.headers.get('vary')})`);
        sent[encoding] = Number(res.headers.get('content-length'));
        check((await res.arrayBuffer()).byteLength === size, `${encoding}: the decoded script differs in size from the file`);
      }
      const api = await fetch(`${base}/api/v1/election`, { headers: { 'accept-encoding': 'br, gzip' } });
      check(!api.headers.get('content-encoding'), `the API answered ${api.headers.get('content-encoding')}`);
      return `${script}: ${size} bytes, ${sent.br} brotli, ${sent.gzip} gzip; the API uncompressed`;
    });

    const memberNos = ['771001', '771002'];
    await step('members imported with `docker compose exec -T server kura members:import - < members.csv`', async () => {
      const branches = (await admin.expect(200, 'GET', '/api/v1/branches')).data.data;
      check(branches.length > 0, 'no branches');
      const branch = branches[0].name;
      const csv = `member_no,name,email,phone,branch\n${memberNos[0]},Docker Voter One,voter.one@example.org,0711771001,${branch}\n${memberNos[1]},Docker Voter Two,voter.two@example.org,0711771002,${branch}\n`;
      const r = dcOk(['exec', '-T', 'server', 'kura', 'members:import', '-'], { input: csv });
      check(/2 created/.test(r.out), `import said: ${r.out.trim()} ${r.err.trim()}`);
      return r.out.trim();
    });

    await step('a BLT file recounted in the image with `docker compose exec -T server kura count --json -`', async () => {
      // One seat: Ada leads on first preferences (4), Cleo's papers go to Ben (3 + 2 = 5 of quota 5).
      const blt = '3 1\n4 1 0\n3 2 3 0\n2 3 2 0\n0\n"Ada"\n"Ben"\n"Cleo"\n"Chair"\n';
      const r = dcOk(['exec', '-T', 'server', 'kura', 'count', '--json', '-'], { input: blt });
      const count = JSON.parse(r.out);
      check(count.quota === '5.00000', `quota ${count.quota}`);
      check(
        JSON.stringify(count.elected) === JSON.stringify([{ name: 'Ben', votes: '5.00000' }]),
        `elected ${JSON.stringify(count.elected)}`,
      );
      return `elected ${count.elected.map((e) => e.name).join(', ')}, ${count.rounds.length} rounds`;
    });

    await step('voting on (POST toggle as the admin)', async () => {
      const r = await admin.expect(200, 'POST', '/api/v1/toggle', { status: true });
      check(r.active === '1', `toggle answered ${JSON.stringify(r)}`);
    });

    let vote;
    await step('a member signs in with the code texted through the SMS webhook sink, and votes', async () => {
      const voter = await voterSignIn(base, sms, memberNos[0]);
      vote = await castVote(voter);
      await receiptRecorded(base, vote.vvpat);
      vote.count = await candidateCount(admin, vote.positionId, vote.candidateId);
      check(vote.count >= 1, 'the vote is not in the results');
      return `receipt ${vote.vvpat}, candidate count ${vote.count}`;
    });

    await step('docker compose restart: the vote is still counted', async () => {
      dcOk(['restart']);
      await healthy('postgres');
      await healthy('server');
      await receiptRecorded(base, vote.vvpat);
      // The admin's session lives in the database: it survives the restart.
      const count = await candidateCount(admin, vote.positionId, vote.candidateId);
      check(count === vote.count, `count ${count} after restart, ${vote.count} before`);
    });

    const backup = join(work, 'kura-backup.sql');
    const uploadsTar = join(work, 'kura-uploads.tar');
    await step(
      'backup: `docker compose exec -T postgres pg_dump -U kura --clean --if-exists kura > backup.sql` and the uploads tar',
      async () => {
        const dump = dcOk(['exec', '-T', 'postgres', 'pg_dump', '-U', 'kura', '--clean', '--if-exists', 'kura']);
        check(dump.out.includes('PostgreSQL database dump complete'), 'the dump is incomplete');
        writeFileSync(backup, dump.out);
        const tar = run(compose.cmd, [...compose.pre, 'exec', '-T', 'server', 'tar', '-C', '/data', '-cf', '-', '.'], {
          cwd: app,
          env,
          encoding: 'buffer',
        });
        check(tar.code === 0, `uploads tar exited ${tar.code}`);
        writeFileSync(uploadsTar, tar.out);
        return `${(dump.out.length / 1024).toFixed(0)} KiB of SQL, ${(tar.out.length / 1024).toFixed(0)} KiB of uploads`;
      },
    );

    await step('docker compose down -v: the volumes are gone', async () => {
      dcOk(['down', '-v']);
      const vols = run('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`]).out.trim();
      check(vols === '', `volumes left: ${vols}`);
    });

    await step('restore into a fresh stack (operations.md "Backups and restore"); the vote is kept, audit:verify passes', async () => {
      dcOk(['up', '-d', 'postgres']);
      await healthy('postgres');
      dcOk(['exec', '-T', 'postgres', 'psql', '-q', '-U', 'kura', '-d', 'kura', '-v', 'ON_ERROR_STOP=1', '--single-transaction'], {
        input: readFileSync(backup),
      });
      dcOk(['up', '-d', '--build']);
      await healthy('server');
      dcOk(['exec', '-T', 'server', 'tar', '-C', '/data', '-xf', '-'], { input: readFileSync(uploadsTar) });
      await receiptRecorded(base, vote.vvpat);
      const count = await candidateCount(admin, vote.positionId, vote.candidateId);
      check(count === vote.count, `count ${count} after restore, ${vote.count} before`);
      const audit = dc(['exec', '-T', 'server', 'kura', 'audit:verify']);
      check(
        audit.code === 0 && audit.out.includes('Audit passed.'),
        `audit:verify exited ${audit.code}: ${(audit.out + audit.err).trim().slice(-400)}`,
      );
      return audit.out.trim().split('\n').pop();
    });

    dotenv = setEnv(dotenv, { COMPOSE_PROFILES: 'scale', REDIS_URL: 'redis://redis:6379' });
    writeEnv();
    let replicas;
    await step('scale profile (COMPOSE_PROFILES=scale, REDIS_URL in .env): `docker compose up -d --scale server=2`', async () => {
      dcOk(['up', '-d', '--scale', 'server=2']);
      await healthy('redis');
      replicas = await healthy('server', 2, 300_000);
      for (const id of replicas) {
        const logs = run('docker', ['logs', id]);
        check(/"adapter":"redis"/.test(logs.out + logs.err), `replica ${id.slice(0, 12)} does not say it uses the Redis adapter`);
      }
      const channels = dcOk(['exec', '-T', 'redis', 'redis-cli', 'pubsub', 'channels']).out;
      check(/socket\.io/.test(channels), `no Socket.IO channels in Redis: ${channels.trim()}`);
      return `replicas at ${replicas.map(ipOf).join(' and ')}, both on the Redis adapter`;
    });

    await step('a vote cast through one replica reaches a live Socket.IO watcher on the other', async () => {
      const [a, b] = replicas.map((id) => `http://${ipOf(id)}:3000`);
      const watcher = io(a, { path: '/socket.io', transports: ['websocket'], reconnection: false, timeout: 10_000 });
      try {
        await new Promise((resolve, reject) => {
          watcher.once('connect', resolve);
          watcher.once('connect_error', reject);
        });
        const ack = await new Promise((resolve) => watcher.emit('subscribe', ['votes'], (answer) => resolve(answer)));
        const seen = [];
        watcher.on('VoteResultsUpdated', (payload) => seen.push(payload));
        const voter = await voterSignIn(b, sms, memberNos[1]);
        const second = await castVote(voter);
        // The vote is relayed to A at once; a relayed message that went missing is repaired by A's
        // periodic rebuild (every 30 s, realtime/relay.ts), so the wait covers two of those.
        const castAt = Date.now();
        const end = castAt + 65_000;
        const totalOf = (p) => p.results.find((r) => r.position_id === second.positionId)?.total ?? 0;
        const before = vote.positionId === second.positionId ? vote.count : 0;
        while (Date.now() < end && !seen.some((p) => totalOf(p) > before)) await sleep(200);
        if (!seen.some((p) => totalOf(p) > before)) {
          const logs = replicas
            .map(
              (id) =>
                `${id.slice(0, 12)}: ${(({ out, err }) => out + err)(run('docker', ['logs', '--tail', '15', id]))
                  .trim()
                  .split('\n')
                  .slice(-15)
                  .join(' | ')}`,
            )
            .join(' || ');
          fail(
            `the watcher on replica A (subscribe answered ${JSON.stringify(ack)}) saw ${seen.length} updates, none with the new vote; replica logs: ${logs.slice(-3000)}`,
          );
        }
        return `vote through ${b}, update seen on ${a} ${secs(Date.now() - castAt)} after the vote`;
      } finally {
        watcher.close();
      }
    });

    await step('through the proxy: long-polling sticks to one replica (cookie kura_lb), WebSocket passes', async () => {
      // Engine.IO long-polling: the handshake's session lives on one replica only, so every poll
      // must reach that replica; the proxy's cookie sees to it.
      const hand = await fetch(`${base}/socket.io/?EIO=4&transport=polling`);
      const cookie = hand.headers
        .getSetCookie()
        .find((c) => c.startsWith('kura_lb='))
        ?.split(';')[0];
      check(cookie, 'the proxy set no kura_lb cookie');
      const sid = /"sid":"([^"]+)"/.exec(await hand.text())?.[1];
      check(sid, 'no Engine.IO session id');
      const url = `${base}/socket.io/?EIO=4&transport=polling&sid=${sid}`;
      const opened = await fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '40' });
      check(opened.ok, `connect packet answered ${opened.status}`);
      await opened.text();
      for (let i = 0; i < 8; i++) {
        const poll = await fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '3' });
        check(poll.ok, `poll ${i + 1} with the cookie answered ${poll.status} (a replica without the session)`);
        await poll.text();
      }
      const ws = io(base, { path: '/socket.io', transports: ['websocket'], reconnection: false, timeout: 10_000 });
      try {
        await new Promise((resolve, reject) => {
          ws.once('connect', resolve);
          ws.once('connect_error', reject);
        });
      } finally {
        ws.close();
      }
    });

    // Configuration only (no replica started, so the run stays as long): what an operator's
    // COMPOSE_PROFILES=scale,realtime and KURA_SOCKET_UPSTREAM=realtime (operations.md "Scale-out") make.
    await step('realtime replicas, as configured: KURA_SOCKET_UPSTREAM=realtime sends /socket.io/* alone to them', async () => {
      const config = YAML.parse(
        dcOk(['config'], { env: { ...env, COMPOSE_PROFILES: 'scale,realtime', KURA_SOCKET_UPSTREAM: 'realtime' } }).out,
      );
      const realtime = config.services.realtime;
      check(realtime, `docker compose config has no realtime service: ${Object.keys(config.services).join(', ')}`);
      check(!realtime.ports, `the realtime service publishes ports: ${JSON.stringify(realtime.ports)}`);
      check(realtime.healthcheck, 'the realtime service has no healthcheck');
      check(realtime.depends_on?.server, 'the realtime service does not wait for a server');
      check(config.services.proxy.environment.KURA_SOCKET_UPSTREAM === 'realtime', 'KURA_SOCKET_UPSTREAM does not reach the proxy');
      const [proxy] = containers('proxy');
      const adapt = (upstream) => {
        const r = run('docker', [
          'exec',
          ...(upstream ? ['-e', `KURA_SOCKET_UPSTREAM=${upstream}`] : []),
          proxy,
          'caddy',
          'adapt',
          '--config',
          '/etc/caddy/Caddyfile',
        ]);
        check(r.code === 0, `caddy adapt in the proxy exited ${r.code}: ${r.err.trim().slice(-300)}`);
        return proxyRoutes(r.out);
      };
      const split = adapt('realtime');
      check(split.socket?.name === 'realtime' && split.rest?.name === 'server', `routes with realtime: ${JSON.stringify(split)}`);
      check(split.socket.cookie !== split.rest.cookie, `one stickiness cookie for both routes: ${JSON.stringify(split)}`);
      const running = adapt();
      check(running.socket?.name === 'server' && running.rest?.name === 'server', `routes by default: ${JSON.stringify(running)}`);
      return `/socket.io/* → ${split.socket.name} (cookie ${split.socket.cookie}), the rest → ${split.rest.name} (cookie ${split.rest.cookie}); by default both → server`;
    });

    // Closing is final: this runs after every step that votes; the HTTPS step after it needs no open election.
    await step('with 2 replicas the schedule opens and closes the election exactly once (PUT election opens_at/closes_at)', async () => {
      // Voting off first, so the opening is the scheduler's doing.
      const off = await admin.expect(200, 'POST', '/api/v1/toggle', { status: false });
      check(off.active === '0', `toggle off answered ${JSON.stringify(off)}`);
      const opensAt = new Date(Date.now() + 8_000);
      const closesAt = new Date(opensAt.getTime() + 8_000);
      const put = (
        await admin.expect(200, 'PUT', '/api/v1/election', { opens_at: opensAt.toISOString(), closes_at: closesAt.toISOString() })
      ).data;
      check(put.phase === 'scheduled', `PUT election answered phase ${put.phase}, expected scheduled`);
      const phaseBecomes = async (phase, timeoutMs) => {
        const end = Date.now() + timeoutMs;
        let last;
        while (Date.now() < end) {
          last = (await admin.expect(200, 'GET', '/api/v1/election')).data.phase;
          if (last === phase) return Date.now();
          await sleep(250);
        }
        fail(`GET election: phase ${last} after ${timeoutMs / 1000}s, expected ${phase}`);
      };
      const openedSeen = await phaseBecomes('open', 30_000);
      const closedSeen = await phaseBecomes('closed', 30_000);
      // Both replicas ran their scheduler through both times; give a late one a round to repeat.
      await sleep(6_000);
      const sqlOut = (query) =>
        dcOk(['exec', '-T', 'postgres', 'psql', '-U', 'kura', '-d', 'kura', '-At', '-v', 'ON_ERROR_STOP=1', '-c', query]).out.trim();
      // Election 1 only: the demo also seeds last year's election, closed by the seed itself.
      const opened = sqlOut("select count(*) from activity_logs where activity = 'Voting opened on schedule'");
      const closed = sqlOut(
        "select name || '|' || coalesce(data, '') from activity_logs where activity = 'Closed the election' and name <> 'Demo seed'",
      );
      const openCommitments = sqlOut("select count(*) from commitments where reason = 'voting opened on schedule' and election_id = 1");
      const finals = sqlOut("select count(*) from commitments where reason = 'final' and election_id = 1");
      const row = sqlOut(
        "select (opened_at is not null)::text || '|' || (closed_at is not null)::text || '|' || (final_commitment_id is not null)::text from election where id = 1",
      );
      check(opened === '1', `${opened} "Voting opened on schedule" activity-log rows, expected 1`);
      check(
        /^Schedule\|election 1(: .*)?; on schedule$/.test(closed),
        `"Closed the election" activity-log rows: ${JSON.stringify(closed.split('\n'))}, expected one by Schedule`,
      );
      check(openCommitments === '1', `${openCommitments} commitments at the scheduled opening, expected 1`);
      check(finals === '1', `${finals} final commitments, expected 1`);
      check(row === 'true|true|true', `election row opened_at|closed_at|final_commitment_id set: ${row}`);
      const status = await fetch(`${base}/api/v1/psk/election/status`).then((r) => r.json());
      check(status.active === '0', `voting status after the close: ${JSON.stringify(status)}`);
      return `open seen ${secs(openedSeen - opensAt.getTime())} after opens_at, closed ${secs(closedSeen - closesAt.getTime())} after closes_at; 1 opening and 1 closing log row, 1 opening and 1 final commitment`;
    });

    await step(
      'the evidence pack checked offline in the image: `docker run --rm --network none <image> kura verify-evidence`',
      async () => {
        const pack = await admin.bytes('/api/v1/elections/1/evidence');
        check(
          pack.status === 200 && pack.type.startsWith('application/zip'),
          `GET elections/1/evidence answered ${pack.status} ${pack.type}`,
        );
        const dir = join(work, 'evidence');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'pack.zip'), pack.body);
        // And the same pack with one byte in the middle (inside a compressed file) changed: it must fail.
        const tampered = Buffer.from(pack.body);
        tampered[Math.floor(tampered.length / 2)] ^= 0x01;
        writeFileSync(join(dir, 'tampered.zip'), tampered);
        run('chmod', ['-R', 'a+rX', dir]);
        const verify = (file) =>
          // The image this test built (kura-test:latest; an operator's is kura:latest, operations.md).
          run('docker', [
            'run',
            '--rm',
            '--network',
            'none',
            '-v',
            `${dir}:/w:ro`,
            'kura-test:latest',
            'kura',
            'verify-evidence',
            `/w/${file}`,
          ]);
        const good = verify('pack.zip');
        check(
          good.code === 0 && /passed every check/.test(good.out),
          `verify-evidence exited ${good.code}: ${(good.out + good.err).trim().slice(-600)}`,
        );
        const bad = verify('tampered.zip');
        check(
          bad.code !== 0 && /FAIL/.test(bad.out + bad.err),
          `a pack with one byte changed: exit ${bad.code}: ${(bad.out + bad.err).trim().slice(-400)}`,
        );
        return `${(pack.body.length / 1024).toFixed(0)} KiB pack: ${good.out.trim().split('\n').length} lines, passed; one byte changed: exit ${bad.code}`;
      },
    );

    await step(
      'HTTPS at the proxy (local certificate, KURA_SITE=https://localhost, KURA_TLS=files): Secure cookies and HSTS over HTTPS only',
      async () => {
        const certs = join(app, 'certs');
        const o = run('openssl', [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '2',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
          '-keyout',
          join(certs, 'key.pem'),
          '-out',
          join(certs, 'cert.pem'),
        ]);
        check(o.code === 0, `openssl: ${o.err}`);
        run('chmod', ['644', join(certs, 'key.pem')]);
        dotenv = setEnv(dotenv, { KURA_SITE: 'https://localhost', KURA_TLS: 'files' });
        writeEnv();
        dcOk(['up', '-d', '--scale', 'server=2']);
        const ca = readFileSync(join(certs, 'cert.pem'));
        let res;
        // The .env change recreates both replicas: the proxy answers 502 until one is up, which
        // took past 30 s on a machine busy with the browser suite (CI).
        const end = Date.now() + 180_000;
        while (Date.now() < end) {
          res = await httpsGet(httpsPort, '/sanctum/csrf-cookie', ca).catch((e) => e);
          if (res.statusCode === 204) break;
          await sleep(500);
        }
        check(res?.statusCode === 204, `https://localhost:${httpsPort}/sanctum/csrf-cookie: ${res?.statusCode ?? res}`);
        const xsrf = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('XSRF-TOKEN='));
        check(xsrf && /;\s*Secure/i.test(xsrf), `the cookie over HTTPS is not Secure: ${xsrf}`);
        check(/max-age=\d+/.test(res.headers['strict-transport-security'] ?? ''), 'no HSTS over HTTPS');
        // Plain HTTP: the proxy redirects to HTTPS; a replica reached directly over HTTP sends
        // neither Secure cookies nor HSTS.
        const plain = await fetch(`${base}/sanctum/csrf-cookie`, { redirect: 'manual' });
        check(
          [301, 302, 307, 308].includes(plain.status) && (plain.headers.get('location') ?? '').startsWith('https://'),
          `plain HTTP at the proxy answered ${plain.status}`,
        );
        // The .env change recreated the replicas: look them up again.
        replicas = await healthy('server', 2, 300_000);
        const direct = await fetch(`http://${ipOf(replicas[0])}:3000/sanctum/csrf-cookie`);
        const directCookie = direct.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN=')) ?? '';
        check(!/;\s*Secure/i.test(directCookie), 'a Secure cookie over plain HTTP');
        const hsts = direct.headers.get('strict-transport-security');
        check(!hsts, `HSTS over plain HTTP: ${hsts}`);
        return `HSTS "${res.headers['strict-transport-security']}" over HTTPS, none over plain HTTP; the proxy redirects plain HTTP to HTTPS`;
      },
    );
    ok = true;
  } catch {
    // reported by step()
  } finally {
    if (!ok && process.env.KURA_DOCKER_KEEP === '1') say(`left running for a look: COMPOSE_PROJECT_NAME=${project} in ${app}`);
    else {
      const t = Date.now();
      dc(['down', '-v', '--remove-orphans']);
      rmSync(work, { recursive: true, force: true });
      say(`torn down (${secs(Date.now() - t)}): containers, network and volumes of ${project}; images kept for the next run`);
    }
    await smtp.close();
    await sms.close();
  }
  say(`total ${secs(Date.now() - T0)}${timings.build !== undefined ? `, of which image build + first start ${secs(timings.build)}` : ''}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv.includes('--prepare')) {
  prepare().catch((error) => {
    // The run itself makes the images again and reports what fails.
    say(`prepare failed: ${error instanceof Error ? error.message : error}`);
  });
} else {
  main().catch((error) => {
    console.error(error);
    console.log(`${passed} passed, ${failed + 1} failed`);
    process.exit(1);
  });
}
