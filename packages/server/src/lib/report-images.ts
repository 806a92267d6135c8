import { createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { issueReports } from '../db/schema';
import { uploadUrl, uploadsDir } from './uploads';

/**
 * Help-report images are private (SECURITY.md "Uploads"): unlike candidate photos they may show
 * a voter's screen. They keep their place under /uploads/<name>, but are served only with a
 * signature that the admins' report list hands out (an <img> cannot send a bearer token), for
 * REPORT_IMAGE_URL_TTL_MS, and never cached by a shared cache.
 */
export const REPORT_IMAGE_URL_TTL_MS = 60 * 60_000;

const signatureOf = (ctx: AppContext, name: string, expires: number) =>
  createHmac('sha256', ctx.secrets.reportImageKey).update(`${name}\n${expires}`).digest('base64url');

/** The URL an admin's browser loads a report image from. */
export function reportImageUrl(ctx: AppContext, name: string): string {
  const expires = Math.floor((ctx.now().getTime() + REPORT_IMAGE_URL_TTL_MS) / 1000);
  return `${uploadUrl(name)}?expires=${expires}&sig=${signatureOf(ctx, name, expires)}`;
}

function validSignature(ctx: AppContext, name: string, req: Request): boolean {
  const { expires, sig } = req.query;
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) * 1000 < ctx.now().getTime()) return false;
  const expected = Buffer.from(signatureOf(ctx, name, Number(expires)));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Mounted at /uploads before the public static files: a report image needs a valid signature. */
export function reportImageGuard(ctx: AppContext) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const name = req.path.slice(1);
      if (!/^[a-f0-9]{32}\.(jpg|png|webp)$/.test(name)) return next();
      const [row] = await ctx.database.db
        .select({ id: issueReports.id })
        .from(issueReports)
        .where(sql`${issueReports.images} @> ${JSON.stringify([name])}::jsonb`)
        .limit(1);
      if (!row) return next();
      if (!validSignature(ctx, name, req)) {
        res.status(403).setHeader('Cache-Control', 'no-store').json({ message: 'This image is only for the admins' });
        return;
      }
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
      res.setHeader('Cache-Control', 'private, no-store');
      res.sendFile(join(uploadsDir(ctx), name), { cacheControl: false, lastModified: false, etag: false, dotfiles: 'deny' }, (error) => {
        if (error && !res.headersSent) next(error);
      });
    } catch (error) {
      next(error);
    }
  };
}
