import { posix } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { Core } from '../core';
import { AppError } from '../errors';
import { isReportImage, validSignature } from '../lib/report-images';
import { uploadsDir } from '../lib/uploads';

/** The only names ever stored (lib/uploads.ts), in any case: the decision is made on the lower-case form. */
const STORED_NAME = /^[a-f0-9]{32}\.(jpg|png|webp)$/i;
const PREFIX = '/uploads/';

/**
 * The stored file a request path means, decided on the decoded, normalised path: percent-encoding
 * (`%31…`, `.%70ng`, `%2F`), doubled slashes, `.` and `..` segments and capitals all name the same
 * file the plain path does, so no spelling can reach a file under a different rule. `undefined`
 * when the path is not under /uploads at all; `null` when it is but names no stored file.
 */
export function uploadNameOf(rawPath: string): string | null | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // Malformed percent-encoding: judged on the raw path, which then names no stored file.
    decoded = rawPath;
  }
  const path = posix.normalize(decoded);
  if (!path.toLowerCase().startsWith(PREFIX) && path.toLowerCase() !== '/uploads') return undefined;
  const name = path.slice(PREFIX.length);
  return STORED_NAME.test(name) ? name.toLowerCase() : null;
}

const inert = (res: Response) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'");
};

/**
 * Everything under /uploads, and the only reader of DATA_DIR/uploads: candidate photos are public
 * (a day of caching), help-report images are private (SECURITY.md "Uploads") and answered only
 * with a valid signature, `private, no-store`. Mounted at the root, not at `/uploads`, so that
 * `//uploads/…` or `/%75ploads/…` cannot pass it by and reach another handler.
 */
export function uploadsRoute(ctx: Core) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = uploadNameOf(req.path);
    if (name === undefined) return next();
    if (name === null) return next(AppError.say('NOT_FOUND', 'error.noSuchFile'));
    try {
      const report = await isReportImage(ctx, name);
      if (report && !validSignature(ctx, name, req)) {
        res.status(403).setHeader('Cache-Control', 'no-store').json({ message: 'This image is only for the admins' });
        return;
      }
      inert(res);
      if (report) res.setHeader('Cache-Control', 'private, no-store');
      const options = report
        ? { root: uploadsDir(ctx), cacheControl: false, lastModified: false, etag: false, dotfiles: 'deny' as const }
        : { root: uploadsDir(ctx), maxAge: '1d', dotfiles: 'deny' as const };
      res.sendFile(name, options, (error?: Error & { status?: number }) => {
        if (!error || res.headersSent) return;
        if (report) res.removeHeader('Cache-Control');
        next(error.status === 404 ? AppError.say('NOT_FOUND', 'error.noSuchFile') : error);
      });
    } catch (error) {
      next(error);
    }
  };
}
