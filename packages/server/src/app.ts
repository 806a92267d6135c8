import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import swaggerUi from 'swagger-ui-express';
import { createExpressEndpoints } from '@ts-rest/express';
import type { AppRoute } from '@ts-rest/core';
import { contract, type RouteMetadata } from '@kura/contract';
import type { RequestListener } from 'node:http';
import type { AppContext } from './context';
import { AppError } from './errors';
import { accessMiddleware, pendingSessionErrors } from './auth/access';
import { errorHandler } from './http/error-handler';
import { openApiDocument } from './http/openapi';
import { mountWebApp, mountWebAssets } from './http/web';
import { publicResultsFastPath, staticHeadersOf } from './http/public-results';
import { migrationsApplied } from './db/migrate';
import { loggedPath } from './http/log-path';
import { errSerializer } from './logger';
import { uploadsRoute } from './http/uploads';
import { moduleImplementations } from './modules';

export const JSON_BODY_LIMIT = '100kb';

/** Rewrites the `/api/...` alias onto `/api/v1/...`: one router, two prefixes. */
function apiAlias(req: Request, _res: Response, next: NextFunction) {
  if (
    req.url.startsWith('/api/') &&
    !req.url.startsWith('/api/v1/') &&
    !req.url.startsWith('/api/docs') &&
    !req.url.startsWith('/api/openapi.json')
  ) {
    req.url = `/api/v1${req.url.slice(4)}`;
  }
  next();
}

/** Routes whose handler checks the caller's session in its own statement (auth/access.ts). */
const SESSION_IN_STATEMENT: ReadonlySet<AppRoute> = new Set([contract.api.ballots.castVote]);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body in a media type the route does not take is a 415, not a confusing 422. */
function mediaTypeGuard(req: Request, _res: Response, next: NextFunction) {
  const route = (req as Request & { tsRestRoute?: { contentType?: string; metadata?: { jsonToo?: boolean } } }).tsRestRoute;
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!BODY_METHODS.has(req.method) || !hasBody) return next();
  const expected = route?.contentType === 'multipart/form-data' ? 'multipart/form-data' : 'application/json';
  // A multipart route may take JSON too (metadata `jsonToo`: the same fields, without the files).
  if (expected === 'multipart/form-data' && route?.metadata?.jsonToo && req.is('application/json')) return next();
  if (!req.is(expected)) return next(AppError.say('UNSUPPORTED_MEDIA_TYPE', 'error.bodyMustBe', { type: expected }));
  next();
}

/**
 * One line per request at `info`. Above that level (production runs at `warn` under load) pino-http
 * would still build a redacting child logger for every request, about a tenth of a results read's
 * CPU (BENCHMARKS.md), to print nothing but failures: then only server errors are logged.
 */
function requestLogging(ctx: AppContext) {
  if (!ctx.logger.isLevelEnabled('info')) {
    return (req: Request, res: Response, next: NextFunction) => {
      res.once('finish', () => {
        if (res.statusCode >= 500)
          ctx.logger[res.statusCode === 500 ? 'error' : 'warn'](
            { req: { method: req.method, url: loggedPath(req.originalUrl), ip: req.ip }, res: { status: res.statusCode } },
            'request completed',
          );
      });
      next();
    };
  }
  return pinoHttp({
    logger: ctx.logger,
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    serializers: {
      req: (req: { method: string; url: string; remoteAddress?: string }) => ({
        method: req.method,
        url: loggedPath(req.url),
        ip: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: errSerializer,
    },
    customLogLevel: (_req, res, err) =>
      res.statusCode === 500 || (err && res.statusCode >= 500) ? 'error' : res.statusCode >= 500 ? 'warn' : 'info',
  });
}

function securityHeaders() {
  return helmet({
    // Sent only over HTTPS, by `httpsOnlyHsts` below: over plain HTTP the header is meaningless
    // and, on a LAN install later moved behind TLS, a trap.
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
        frameSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        // 'self' covers same-origin ws:/wss: in current browsers (CSP Level 3); no other socket host.
        connectSrc: ["'self'", 'https://accounts.google.com/gsi/'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com'],
        fontSrc: ["'self'", 'data:'],
        // Installations on a plain-HTTP LAN address must still load their own assets.
        upgradeInsecureRequests: null,
      },
    },
  });
}

/**
 * Strict-Transport-Security only on a request that came over HTTPS: `req.secure` is the socket's
 * TLS, or X-Forwarded-Proto from a proxy believed through TRUST_PROXY_HOPS.
 */
function httpsOnlyHsts(req: Request, res: Response, next: NextFunction) {
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
}

/** The public results read answered before Express, with the app's security headers and ETags. */
const fastPathOf = (ctx: AppContext, app: Express, headers = staticHeadersOf(securityHeaders())) =>
  publicResultsFastPath(ctx, headers, app.get('etag fn') as (body: Buffer) => string);

/**
 * The HTTP server's listener: the fast paths straight on `node:http` (Express's own per-request
 * setup costs more than the whole answer), then the app. Each holds its own serialised body;
 * only this one is reached when the app runs behind it.
 */
export function createRequestListener(ctx: AppContext, app: Express): RequestListener {
  const fast = fastPathOf(ctx, app);
  return (req, res) => {
    if (!fast(req, res)) app(req, res);
  };
}

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // A hop count, never `true`: X-Forwarded-For is only believed from that many proxies.
  app.set('trust proxy', ctx.env.TRUST_PROXY_HOPS);
  app.set('query parser', 'simple');

  // The security headers as fixed values, worked out once for the answers given before helmet runs.
  const staticHeaders = staticHeadersOf(securityHeaders());
  // Before everything else, unlogged like /healthz: the most frequent read of an election day
  // (for callers of the app itself, such as tests; a server puts createRequestListener in front).
  const publicResults = fastPathOf(ctx, app, staticHeaders);
  app.use((req, res, next) => {
    if (!publicResults(req, res)) next();
  });
  // The web app's hashed assets, unlogged too: files, not requests anyone reads the log for.
  mountWebAssets(app, ctx, staticHeaders, httpsOnlyHsts);
  app.use(requestLogging(ctx));

  app.use(securityHeaders());
  app.use(httpsOnlyHsts);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await ctx.database.sql`select 1`;
      const migrated = await migrationsApplied(ctx.database);
      res.status(migrated ? 200 : 503).json({ status: migrated ? 'ready' : 'migrations pending', database: ctx.database.kind });
    } catch {
      res.status(503).json({ status: 'database unreachable', database: ctx.database.kind });
    }
  });

  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  app.use(
    '/api/docs',
    (_req: Request, res: Response, next: NextFunction) => {
      // Swagger UI needs inline styles and its own init script.
      res.setHeader(
        'Content-Security-Policy',
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; script-src 'self' 'unsafe-inline'",
      );
      next();
    },
    swaggerUi.serve,
    swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/openapi.json' }, customSiteTitle: 'Kura API' }),
  );

  app.use(uploadsRoute(ctx));

  app.use(apiAlias);
  app.use(cookieParser(ctx.secrets.sessionSecret));
  app.use('/api', express.json({ limit: JSON_BODY_LIMIT, strict: true }));
  // The USSD gateway's callback: form-encoded, answered in text/plain (modules/ussd).
  app.post('/api/v1/ussd/:token', express.urlencoded({ extended: false, limit: '16kb' }), ctx.ussdCallback(ctx));

  createExpressEndpoints(contract, moduleImplementations(ctx.routes(ctx)), app, {
    responseValidation: ctx.env.NODE_ENV === 'test',
    // The vote looks its session up inside its one statement (docs/architecture.md "Request path").
    globalMiddleware: [accessMiddleware(ctx, { sessionInStatement: SESSION_IN_STATEMENT }), mediaTypeGuard],
    requestValidationErrorHandler: (err, _req, _res, next) => next(err),
  });

  app.use(pendingSessionErrors(ctx));
  app.use('/api', (req, _res, next) =>
    next(AppError.say('NOT_FOUND', 'error.noRoute', { route: `${req.method} ${req.baseUrl}${req.path}` })),
  );
  mountWebApp(app, ctx);
  app.use(errorHandler(ctx.logger));
  return app;
}

export type { RouteMetadata };
