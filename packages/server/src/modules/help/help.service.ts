import type { IssueReport, PageQuery, Paginated } from '@kura/contract';
import { count, desc } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { issueReports } from '../../db/schema';
import type { SignedInActor } from '../../auth/actor';
import { auditedTransaction } from '../../lib/audited-transaction';
import { pageRequest, paginate } from '../../lib/pagination';
import { removeUploads, storeImages, uploadUrl, type UploadFile } from '../../lib/uploads';

/**
 * Stores an issue report with who sent it. Images are checked and written first (a bad one
 * rejects the report with nothing kept) and removed again if the report cannot be saved.
 */
export async function reportIssue(ctx: AppContext, reporter: SignedInActor, details: string, images: UploadFile[]): Promise<void> {
  const stored = await storeImages(ctx, images);
  try {
    await auditedTransaction(ctx, { actor: reporter, activity: 'Issue reported', data: `${stored.length} image${stored.length === 1 ? '' : 's'}` }, async (tx) => {
      await tx.insert(issueReports).values({
        details: details.trim(),
        role: reporter.role,
        reporterId: reporter.id,
        reporterName: reporter.name,
        images: stored,
        createdAt: ctx.now(),
      });
    });
  } catch (error) {
    await removeUploads(ctx, stored);
    throw error;
  }
}

/** Reports for the admins, newest first. */
export async function listIssues(ctx: AppContext, query: PageQuery): Promise<Paginated<IssueReport>> {
  const { db } = ctx.database;
  const page = pageRequest(query);
  const [total] = await db.select({ n: count() }).from(issueReports);
  const rows = await db.select().from(issueReports).orderBy(desc(issueReports.createdAt), desc(issueReports.id)).limit(page.perPage).offset(page.offset);
  return paginate(
    rows.map((r) => ({
      id: r.id,
      details: r.details,
      role: r.role,
      reporter_id: r.reporterId,
      reporter_name: r.reporterName,
      images: r.images.map(uploadUrl),
      created_at: r.createdAt.toISOString(),
    })),
    total?.n ?? 0,
    page,
  );
}
