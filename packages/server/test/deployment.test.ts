import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine runs here, so the deployment files are checked by reading them.
const root = join(__dirname, '..', '..', '..');

type Service = {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: unknown };
  volumes?: string[];
  ports?: string[];
  profiles?: string[];
};

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };

  it('runs Postgres with a persistent volume and a healthcheck', () => {
    const pg = compose.services.postgres!;
    expect(pg.image).toMatch(/^postgres:\d+/);
    expect(pg.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(pg.healthcheck?.test).toBeDefined();
    expect(Object.keys(compose.volumes)).toContain('pgdata');
  });

  it('runs the server against that Postgres once it is healthy', () => {
    const server = compose.services.server!;
    expect(server.build).toBeDefined();
    expect(server.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(server.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    expect(server.environment?.NODE_ENV).toBe('production');
    for (const key of ['BALLOT_KEY', 'SESSION_SECRET', 'SMTP_URL', 'SMS_PROVIDER']) expect(server.environment).toHaveProperty(key);
    expect(server.healthcheck?.test).toBeDefined();
    expect(JSON.stringify(server.healthcheck?.test)).toContain('/readyz');
    expect(server.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
  });

  it('keeps Redis optional', () => {
    expect(compose.services.redis?.profiles).toContain('scale');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  it('is a multi-stage build that runs the bundled server as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toContain('pnpm install --frozen-lockfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('packages/server/dist/main.js');
    expect(dockerfile).toContain('COPY --from=build /app/migrations ./migrations');
  });

  it('copies every pnpm dependency patch before the frozen install', () => {
    const workspace = parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as { patchedDependencies?: Record<string, string> };
    const patches = Object.values(workspace.patchedDependencies ?? {});
    if (patches.length === 0) return;
    const copy = dockerfile.indexOf('COPY patches ./patches');
    expect(copy).toBeGreaterThan(-1);
    expect(copy).toBeLessThan(dockerfile.indexOf('pnpm install --frozen-lockfile'));
  });
});
