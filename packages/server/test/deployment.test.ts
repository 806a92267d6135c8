import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The deployment files as text. The real run (docker compose up, sign-in, vote, backup, restore,
// scale-out, TLS) is `pnpm test:docker` (deploy/test/run.mjs); these checks keep the files honest
// where no Docker engine runs.
const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

type Service = {
  build?: unknown;
  image?: string;
  env_file?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: unknown };
  volumes?: string[];
  ports?: string[];
  profiles?: string[];
};

// merge: the realtime service takes the server's definition with `<<: *server`, as Compose reads it.
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const envKeys = [...read('packages/server/src/env.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
// Fixed by docker-compose.yml or internal: not for an operator's .env.
const fixedByCompose = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_HOST',
  'DATABASE_PORT',
  'DATABASE_USER',
  'DATABASE_PASSWORD',
  'DATABASE_NAME',
  'WEB_DIST_DIR',
  'AFRICASTALKING_URL',
];

describe('docker-compose.yml', () => {
  it('runs Postgres with a persistent volume, no published port, and a TCP health check', () => {
    const pg = compose.services.postgres!;
    expect(pg.image).toMatch(/^postgres:\d+/);
    expect(pg.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(JSON.stringify(pg.healthcheck?.test)).toContain('-h 127.0.0.1');
    expect(pg.ports).toBeUndefined();
    expect(Object.keys(compose.volumes)).toContain('pgdata');
  });

  it('passes every setting of .env to the server and the database password apart from the URL', () => {
    const server = compose.services.server!;
    expect(server.build).toBeDefined();
    expect((server.depends_on as Record<string, { condition: string }>).postgres?.condition).toBe('service_healthy');
    expect(server.env_file).toBe('.env');
    expect(server.environment?.DATABASE_URL).toBeUndefined();
    expect(server.environment?.DATABASE_HOST).toBe('postgres');
    expect(server.environment?.DATABASE_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(server.environment?.NODE_ENV).toBe('production');
    for (const key of ['BALLOT_KEY', 'SESSION_SECRET', 'SMTP_URL', 'SMS_PROVIDER'])
      expect(server.environment?.[key]).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
    expect(JSON.stringify(server.healthcheck?.test)).toContain('/readyz');
    expect(server.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
    // Replicas (--scale server=N) publish nothing themselves: the proxy does. The app believes the
    // proxy's X-Forwarded-For, so it must not be reachable past it (SECURITY.md "Proxies").
    expect(server.ports).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'proxy') continue;
      expect(service.ports, name).toBeUndefined();
      expect((service as { network_mode?: string }).network_mode, name).toBeUndefined();
    }
  });

  it('puts a reverse proxy in front that finds every replica, and Redis in the scale profile', () => {
    const proxy = compose.services.proxy!;
    expect(proxy.image).toMatch(/^caddy:/);
    expect(proxy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/dynamic a server 3000/);
    expect(caddyfile).toMatch(/lb_policy cookie/);
    expect(compose.services.redis?.profiles).toContain('scale');
  });

  it('runs realtime replicas, in their own profile, that the proxy sends Socket.IO alone to when told', () => {
    const { server, realtime, proxy } = compose.services;
    // The same server: image, build, settings and health check; started only with the profile, and
    // after a server replica is healthy (migrations and first-start data done).
    for (const key of ['build', 'image', 'env_file', 'environment', 'healthcheck', 'volumes'] as const)
      expect(realtime?.[key], key).toEqual(server![key]);
    expect(realtime?.profiles).toEqual(['realtime']);
    expect(server!.profiles).toBeUndefined();
    expect((realtime?.depends_on as Record<string, { condition: string }>).server?.condition).toBe('service_healthy');
    expect(realtime?.ports).toBeUndefined();
    // Unset, the default deployment is unchanged: Socket.IO on the server replicas.
    expect(proxy!.environment?.KURA_SOCKET_UPSTREAM).toBe('${KURA_SOCKET_UPSTREAM:-server}');
    const caddyfile = read('deploy/Caddyfile');
    const socket = /handle \/socket\.io\/\* \{([\s\S]*?)\n\t\}/.exec(caddyfile)?.[1] ?? '';
    const rest = /\n\thandle \{([\s\S]*?)\n\t\}/.exec(caddyfile)?.[1] ?? '';
    expect(socket).toMatch(/dynamic a \{\$KURA_SOCKET_UPSTREAM:server\} 3000/);
    expect(rest).toMatch(/dynamic a server 3000/);
    // Each route its own stickiness cookie: one cookie would be reset by the other route's replicas.
    const cookieOf = (block: string) => /lb_policy cookie (\S+)/.exec(block)?.[1];
    expect(cookieOf(socket)).toBe('kura_lb');
    expect(cookieOf(rest)).toBeDefined();
    expect(cookieOf(rest)).not.toBe(cookieOf(socket));
  });
});

describe('.env.example', () => {
  const example = read('.env.example');
  const keys = [...example.matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
  it('names every setting the server reads, and the deployment ones', () => {
    const missing = envKeys.filter((k) => !fixedByCompose.includes(k) && !keys.includes(k));
    expect(missing).toEqual([]);
    for (const k of ['KURA_PORT', 'KURA_HTTPS_PORT', 'KURA_SITE', 'KURA_TLS', 'TRUST_PROXY_HOPS', 'REDIS_URL', 'AFRICASTALKING_API_KEY'])
      expect(keys).toContain(k);
  });
  it('never ships half an admin: ADMIN_EMAIL and ADMIN_PASSWORD are both empty', () => {
    expect(example).toMatch(/^ADMIN_EMAIL=$/m);
    expect(example).toMatch(/^ADMIN_PASSWORD=$/m);
  });
  it('is documented in docs/operations.md, variable by variable', () => {
    const readme = read('docs/operations.md');
    const undocumented = keys.filter((k) => !readme.includes(`\`${k}\``) && !readme.includes(`${k},`) && !readme.includes(`, ${k}`));
    expect(undocumented).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('is a multi-stage build on Node 24 that runs the bundled server as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(dockerfile).toContain('pnpm install --frozen-lockfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('packages/server/dist/main.js');
    expect(dockerfile).toContain('COPY --from=build /app/migrations ./migrations');
    expect(dockerfile).toContain('COPY deploy/kura /usr/local/bin/kura');
  });

  it('installs the pnpm version package.json pins', () => {
    expect(JSON.parse(read('package.json')).packageManager).toMatch(/^pnpm@\d+\.\d+\.\d+/);
    expect(dockerfile).toContain(`require('./package.json').packageManager`);
    expect(dockerfile).not.toMatch(/pnpm@10\b/);
  });

  it('copies every pnpm dependency patch before the frozen install', () => {
    const workspace = parse(read('pnpm-workspace.yaml')) as { patchedDependencies?: Record<string, string> };
    const patches = Object.values(workspace.patchedDependencies ?? {});
    if (patches.length === 0) return;
    const copy = dockerfile.indexOf('COPY patches ./patches');
    expect(copy).toBeGreaterThan(-1);
    expect(copy).toBeLessThan(dockerfile.indexOf('pnpm install --frozen-lockfile'));
  });

  it('keeps nested data, coverage, Vite caches and secrets out of the build context', () => {
    const ignore = read('.dockerignore').split('\n');
    for (const line of ['**/node_modules', '**/dist', '**/data', '**/coverage', '**/.vite', '.env']) expect(ignore).toContain(line);
  });
});
