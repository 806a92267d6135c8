import type { IssueReport, PageQuery, Paginated } from '@kura/contract';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { Core } from '../../core';
import { AppError } from '../../errors';
import { lockKeyed } from '../../db/locks';
import { issueReports } from '../../db/schema';
import type { SignedInActor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { pageRequest, paginate } from '../../lib/pagination';
import { removeUploads, storeImages, uploadsDir, type UploadFile } from '../../lib/uploads';
import { reportImageUrl } from '../../lib/report-images';

/** Reports one account may send an hour, and the image bytes all its reports may hold. */
export const REPORTS_PER_HOUR = 5;
export const REPORT_STORAGE_PER_ACCOUNT = 30 * 1024 * 1024;
export const TOO_MANY_REPORTS = 'You have sent too many reports, please try again later';
export const REPORT_STORAGE_FULL = 'Your reports have reached their storage limit; send the report without images or with smaller ones';
const HOUR_MS = 60 * 60_000;

/** Bytes the account's stored report images take on disk. */
async function storedBytes(ctx: Core, images: string[]): Promise<number> {
  let total = 0;
  for (const name of images)
    total += await stat(join(uploadsDir(ctx), name)).then(
      (s) => s.size,
      () => 0,
    );
  return total;
}

/**
 * Stores an issue report with who sent it. Each account may send REPORTS_PER_HOUR reports an
 * hour (429) and keep REPORT_STORAGE_PER_ACCOUNT bytes of images (413), checked under a lock per
 * account so parallel requests cannot slip past together: ten reports of five 5 MiB images in a
 * second once wrote 251 MB. Images are checked and written inside (a bad one rejects the report
 * with nothing kept) and removed again if the report cannot be saved.
 */
export async function reportIssue(ctx: Core, reporter: SignedInActor, details: string, images: UploadFile[]): Promise<void> {
  let stored: string[] = [];
  try {
    await auditedTransaction(
      ctx,
      { actor: reporter, activity: 'Issue reported', data: () => `${stored.length} image${stored.length === 1 ? '' : 's'}` },
      async (tx) => {
        // A run the database aborted (auditedTransaction runs it again) kept no report: nor its images.
        if (stored.length > 0) {
          await removeUploads(ctx, stored);
          stored = [];
        }
        await lockKeyed(tx, `help:${reporter.role}:${reporter.id}`);
        const mine = and(eq(issueReports.role, reporter.role), eq(issueReports.reporterId, reporter.id));
        const now = ctx.now();
        const recent = await tx
          .select({ at: issueReports.createdAt })
          .from(issueReports)
          .where(and(mine, gt(issueReports.createdAt, new Date(now.getTime() - HOUR_MS))))
          .orderBy(issueReports.createdAt);
        if (recent.length >= REPORTS_PER_HOUR) {
          const reopens = recent[recent.length - REPORTS_PER_HOUR]!.at.getTime() + HOUR_MS;
          throw AppError.say('TOO_MANY_REQUESTS', 'help.tooMany', undefined, {
            retryAfter: Math.max(1, Math.ceil((reopens - now.getTime()) / 1000)),
          });
        }
        const incoming = images.reduce((sum, f) => sum + f.size, 0);
        if (incoming > 0) {
          const earlier = (await tx.select({ images: issueReports.images }).from(issueReports).where(mine)).flatMap((r) => r.images);
          if ((await storedBytes(ctx, earlier)) + incoming > REPORT_STORAGE_PER_ACCOUNT)
            throw AppError.say('PAYLOAD_TOO_LARGE', 'help.storageFull');
        }
        stored = await storeImages(ctx, images);
        await tx.insert(issueReports).values({
          details: details.trim(),
          role: reporter.role,
          reporterId: reporter.id,
          reporterName: reporter.name,
          images: stored,
          createdAt: now,
        });
      },
    );
  } catch (error) {
    await removeUploads(ctx, stored);
    throw error;
  }
}

/** Reports for the admins, newest first. */
export async function listIssues(ctx: Core, query: PageQuery): Promise<Paginated<IssueReport>> {
  const { db } = ctx.database;
  const page = pageRequest(query);
  const [total] = await db.select({ n: count() }).from(issueReports);
  const rows = await db
    .select()
    .from(issueReports)
    .orderBy(desc(issueReports.createdAt), desc(issueReports.id))
    .limit(page.perPage)
    .offset(page.offset);
  return paginate(
    rows.map((r) => ({
      id: r.id,
      details: r.details,
      role: r.role,
      reporter_id: r.reporterId,
      reporter_name: r.reporterName,
      images: r.images.map((name) => reportImageUrl(ctx, name)),
      created_at: r.createdAt.toISOString(),
    })),
    total?.n ?? 0,
    page,
  );
}
