import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import multer, { MulterError } from 'multer';
import type { Core } from '../core';
import { AppError } from '../errors';
import type { Said } from '../i18n';

/**
 * Uploads (docs/api.md "Rules the server enforces"): images only (JPEG, PNG, WebP) judged by their bytes, at most 5 MiB
 * each, stored under random names in DATA_DIR/uploads and served at /uploads/<name>. The client's
 * file name and claimed type are never used for anything.
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_CSV_BYTES = 10 * 1024 * 1024;
export const UPLOADS_URL_PREFIX = '/uploads/';

const IMAGE_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };
/** The only names this module ever writes; anything else is not ours to delete. */
const STORED_NAME = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

const TEXT_LIMITS = { fields: 20, fieldNameSize: 100, fieldSize: 32 * 1024, headerPairs: 100 };

export type UploadFile = Express.Multer.File;
/**
 * Per-route middleware for ts-rest, whose request type narrows `params` to the route's own
 * shape; express's default `Request` would not accept that, so the parameters stay open.
 */
export type RouteMiddleware = (req: Request<any, any, any, any>, res: Response, next: NextFunction) => void;
export type FileField = { name: string; maxCount: number };

/** Maps the multer limits whose generic mapping would mislead the caller. */
function withFriendlyErrors(handler: RequestHandler, fileTooLarge?: Said): RouteMiddleware {
  return (req, res, next) => {
    handler(req, res, (error?: unknown) => {
      if (!(error instanceof MulterError)) return next(error);
      if (error.code === 'LIMIT_FILE_SIZE' && fileTooLarge)
        return next(AppError.say('PAYLOAD_TOO_LARGE', fileTooLarge.id, fileTooLarge.values));
      if (error.code === 'LIMIT_FIELD_VALUE')
        return next(AppError.say('PAYLOAD_TOO_LARGE', 'upload.fieldTooLarge', { field: error.field ?? 'form' }));
      if (error.code === 'LIMIT_PART_COUNT' || error.code === 'LIMIT_FIELD_COUNT' || error.code === 'LIMIT_FIELD_KEY') {
        return next(AppError.say('PAYLOAD_TOO_LARGE', 'upload.formTooLarge'));
      }
      next(error);
    });
  };
}

/**
 * Multipart parser for image fields, held in memory (≤ 5 MiB × count) so the bytes can be sniffed
 * before anything touches the disk. Mount it per route: the access guard runs first, so an
 * anonymous caller never gets to stream a body into memory.
 */
export function imageUpload(fields: FileField[]): RouteMiddleware {
  const files = fields.reduce((n, f) => Math.max(n, f.maxCount), 0);
  const parser = multer({
    storage: multer.memoryStorage(),
    limits: { ...TEXT_LIMITS, fileSize: MAX_IMAGE_BYTES, files, parts: TEXT_LIMITS.fields + files },
  }).fields(fields);
  return withFriendlyErrors(parser);
}

/** Multipart parser for one CSV file field. */
export function csvUpload(field: string): RouteMiddleware {
  const parser = multer({
    storage: multer.memoryStorage(),
    limits: { ...TEXT_LIMITS, fileSize: MAX_CSV_BYTES, files: 1, parts: TEXT_LIMITS.fields + 1 },
  }).single(field);
  return withFriendlyErrors(parser, { id: 'upload.fileTooLarge', values: { mb: MAX_CSV_BYTES / 1024 / 1024 } });
}

/**
 * The files a request carried under the given field names. Browsers send an empty part with an
 * empty name for an untouched file input, which means "no file", not a broken upload.
 */
export function filesOf(req: Pick<Request, 'file' | 'files'>, names: string[]): UploadFile[] {
  const out: UploadFile[] = [];
  if (req.file && names.includes(req.file.fieldname)) out.push(req.file);
  const files = req.files;
  if (files && !Array.isArray(files)) for (const name of names) out.push(...(files[name] ?? []));
  else if (Array.isArray(files)) out.push(...files.filter((f) => names.includes(f.fieldname)));
  return out.filter((f) => f.size > 0 || f.originalname !== '');
}

export function uploadsDir(ctx: Core): string {
  return join(ctx.env.DATA_DIR, 'uploads');
}

export const uploadUrl = (name: string): string => `${UPLOADS_URL_PREFIX}${name}`;

/** The stored type of an image by its content, or a 415. */
export async function sniffImage(buffer: Buffer): Promise<{ mime: string; ext: string }> {
  const detected = buffer.length > 0 ? await fileTypeFromBuffer(buffer) : undefined;
  const ext = detected ? IMAGE_TYPES[detected.mime] : undefined;
  if (!detected || !ext) throw AppError.say('UNSUPPORTED_MEDIA_TYPE', 'upload.imageType');
  return { mime: detected.mime, ext };
}

/**
 * Checks every file first and only then writes them, so one bad file in a set leaves nothing
 * behind. Answers the stored names (never the client's), in order.
 */
export async function storeImages(ctx: Core, files: UploadFile[]): Promise<string[]> {
  if (files.length === 0) return [];
  const checked = await Promise.all(files.map(async (f) => ({ file: f, ...(await sniffImage(f.buffer)) })));
  const dir = uploadsDir(ctx);
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  try {
    for (const { file, ext } of checked) {
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await writeFile(join(dir, name), file.buffer, { flag: 'wx', mode: 0o644 });
      written.push(name);
    }
  } catch (error) {
    await removeUploads(ctx, written);
    throw error;
  }
  return written;
}

/**
 * Deletes stored uploads by name or /uploads/ URL. Anything that is not one of our random names
 * (a Google picture URL, a crafted path) is left alone, so this can never reach outside the folder.
 */
export async function removeUploads(ctx: Core, namesOrUrls: (string | null | undefined)[]): Promise<void> {
  for (const value of namesOrUrls) {
    if (!value) continue;
    const name = value.startsWith(UPLOADS_URL_PREFIX) ? value.slice(UPLOADS_URL_PREFIX.length) : value;
    if (!STORED_NAME.test(name)) continue;
    try {
      await unlink(join(uploadsDir(ctx), name));
    } catch (error) {
      // Already gone is fine; anything else is worth a log line but not a failed request.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') ctx.logger.warn({ err: error, name }, 'could not remove upload');
    }
  }
}
