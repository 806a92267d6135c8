import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { Core } from '../core';
import { AppError } from '../errors';
import { findUp } from '../lib/find-up';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Deployment settings the browser needs, injected into index.html (no rebuild per deployment). The
 * organisation's texts are not here: they live in the database and the app reads GET election.
 */
export function browserConfig(ctx: Core) {
  const { env } = ctx;
  return {
    appName: env.APP_NAME,
    defaultPin: env.DEFAULT_PIN,
    googleClientId: env.GOOGLE_CLIENT_ID ?? null,
  };
}

function webDistDir(ctx: Core): string | undefined {
  if (ctx.env.WEB_DIST_DIR) return ctx.env.WEB_DIST_DIR;
  // Only the build output: a looser match (`web/index.html`) finds packages/web itself when the
  // app is not built, and would serve its sources and package.json as static files.
  const index = findUp('packages/web/dist/index.html');
  return index ? dirname(index) : undefined;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kura</title></head>
<body><h1>The web app is not built</h1><p>Run <code>pnpm build</code> (or <code>pnpm start</code>) and reload.</p></body></html>`;

/**
 * The web app's hashed assets (`/assets/*`: scripts, styles, the language chunks), mounted before
 * the request log and the API's middleware: a first visit fetches some forty of them, and each one
 * went through the whole app (the log line, the cookie parser, the API's routes tried one by one)
 * before the file was found. `headers` are the security headers every response carries, worked out
 * once (`staticHeadersOf`); HSTS over HTTPS is added by `httpsOnly`. An asset that is not there
 * (a tab left open across an upgrade asks for the old build's) is a 404 in the API's envelope,
 * never index.html.
 *
 * The build writes each script and style sheet also compressed beside it (`.br`, `.gz`: the web's
 * vite.config.ts); a browser that accepts one gets it (brotli first), with `Vary: Accept-Encoding`,
 * so a first visit moves about a third of the bytes and the server compresses nothing per request.
 * Only these files: API answers are never compressed (docs/decisions/017-precompressed-web-assets.md).
 */
export function mountWebAssets(app: Express, ctx: Core, headers: [string, string][], httpsOnly: express.RequestHandler): void {
  const dir = webDistDir(ctx);
  if (!dir) return;
  const files = expressStaticGzip(join(dir, 'assets'), {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { immutable: true, maxAge: '1y', index: false },
  });
  app.use(
    '/assets',
    (req, res, next) => {
      for (const [name, value] of headers) res.setHeader(name, value);
      next();
    },
    httpsOnly,
    // An address that is not percent-encoding (the library would answer it in plain text) is no asset.
    (req, _res, next) => (isDecodable(req.path) ? next() : next(new AppError('NOT_FOUND'))),
    files,
    (_req, res, next) => {
      // A compressed file chosen, then gone from the disk: the library set the file's encoding and
      // type, and the 404 is the API's plain JSON (res.json keeps a type already set).
      res.removeHeader('Content-Encoding');
      res.removeHeader('Content-Type');
      next(new AppError('NOT_FOUND'));
    },
  );
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Serves the rest of the built web app: its other files (the logo), and index.html for every app route. */
export function mountWebApp(app: Express, ctx: Core): void {
  const dir = webDistDir(ctx);
  const indexPath = dir ? join(dir, 'index.html') : undefined;
  const meta = `<meta name="kura-config" content="${escapeHtml(JSON.stringify(browserConfig(ctx)))}">`;
  const indexHtml = indexPath && existsSync(indexPath) ? readFileSync(indexPath, 'utf8').replace('<!--kura-config-->', meta) : NOT_BUILT;

  if (dir) app.use(express.static(dir, { index: false, maxAge: '1h' }));
  app.get('/{*path}', (req: Request, res: Response, next) => {
    if (req.path.startsWith('/api') || req.path.startsWith('/socket.io') || req.path.startsWith('/uploads')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(indexHtml);
  });
}
