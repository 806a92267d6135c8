import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { sql } from 'drizzle-orm';
import type { Core } from '../core';
import { issueReports } from '../db/schema';
import { uploadUrl } from './uploads';

/**
 * Help-report images are private (SECURITY.md "Uploads"): unlike candidate photos they may show
 * a voter's screen. They keep their place under /uploads/<name>, but are served only with a
 * signature that the admins' report list hands out (an <img> cannot send a bearer token), for
 * REPORT_IMAGE_URL_TTL_MS, and never cached by a shared cache.
 */
export const REPORT_IMAGE_URL_TTL_MS = 60 * 60_000;

const signatureOf = (ctx: Core, name: string, expires: number) =>
  createHmac('sha256', ctx.secrets.reportImageKey).update(`${name}\n${expires}`).digest('base64url');

/** The URL an admin's browser loads a report image from. */
export function reportImageUrl(ctx: Core, name: string): string {
  const expires = Math.floor((ctx.now().getTime() + REPORT_IMAGE_URL_TTL_MS) / 1000);
  return `${uploadUrl(name)}?expires=${expires}&sig=${signatureOf(ctx, name, expires)}`;
}

/** Whether the query carries a live signature for this stored name. */
export function validSignature(ctx: Core, name: string, req: Request): boolean {
  const { expires, sig } = req.query;
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
  if (Number(expires) * 1000 < ctx.now().getTime()) return false;
  const expected = Buffer.from(signatureOf(ctx, name, Number(expires)));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether a stored name belongs to a help report (private) rather than a candidate photo. */
export async function isReportImage(ctx: Core, name: string): Promise<boolean> {
  const [row] = await ctx.database.db
    .select({ id: issueReports.id })
    .from(issueReports)
    .where(sql`${issueReports.images} @> ${JSON.stringify([name])}::jsonb`)
    .limit(1);
  return row !== undefined;
}
