import type { NextFunction, Request, Response } from 'express';
import { RequestValidationError } from '@ts-rest/express';
import { MulterError } from 'multer';
import { ZodError } from 'zod';
import { DrizzleQueryError } from 'drizzle-orm';
import type { Logger } from 'pino';
import { AppError, fromContract, refusalOf, type FieldMessage } from '../errors';
import { transientConflict } from '../db/errors';
import { languageFromHeader, localiseErrorBody } from '../i18n';
import { loggedPath } from './log-path';

/** zod issues → `{field: [messages]}` keyed by the dotted path (e.g. `candidates.3`), each by code where it has one (`fromContract`). */
export function fieldErrors(error: ZodError, prefix?: string): Record<string, FieldMessage[]> {
  const out: Record<string, FieldMessage[]> = {};
  const seen = new Set<string>();
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path].filter((p) => p !== undefined && p !== '').join('.') || 'body';
    if (seen.has(`${key}\n${issue.message}`)) continue;
    seen.add(`${key}\n${issue.message}`);
    (out[key] ??= []).push(fromContract(issue.message, issue));
  }
  return out;
}

const isPostgresError = (e: unknown): e is { code: string; name?: string } =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as { code?: unknown }).code === 'string' &&
  (e as { severity?: unknown }).severity !== undefined;

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08003',
  '08001',
  '53300',
]);

/** "database ... is not currently accepting connections" (55000 at connect time): unavailable, not broken. */
const refusesConnections = (e: unknown) =>
  isPostgresError(e) && e.code === '55000' && /accepting connections/i.test(String((e as { message?: unknown }).message));

/** Postgres class-22 codes an input value can raise: 22001 too long, 22003 out of range, 22021 bad byte (NUL), 22P02 bad text form, 22P05 untranslatable. */
const INPUT_DATA_ERRORS = new Set(['22001', '22003', '22021', '22P02', '22P05']);

/** Maps anything thrown to an AppError; the single translation point (docs/architecture.md "Request path"). */
export function toAppError(error: unknown): AppError {
  const refusal = refusalOf(error);
  if (refusal) return refusal;
  // Drizzle wraps the driver's error (connection lost, NUL byte, ...): judge by what it wraps.
  if (error instanceof DrizzleQueryError && error.cause) {
    const inner = toAppError(error.cause);
    return inner.code === 'INTERNAL' ? new AppError('INTERNAL', undefined, { cause: error }) : inner;
  }
  if (error instanceof RequestValidationError) {
    const errors = {
      ...(error.pathParams ? fieldErrors(error.pathParams) : {}),
      ...(error.query ? fieldErrors(error.query) : {}),
      ...(error.body ? fieldErrors(error.body) : {}),
      ...(error.headers ? fieldErrors(error.headers) : {}),
    };
    return AppError.fields(errors);
  }
  if (error instanceof ZodError) return AppError.fields(fieldErrors(error));
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return AppError.say('PAYLOAD_TOO_LARGE', 'upload.imageTooLarge');
    if (error.code === 'LIMIT_FILE_COUNT' || error.code === 'LIMIT_UNEXPECTED_FILE') {
      return AppError.say('VALIDATION', 'upload.tooManyFiles', undefined, {
        errors: { [error.field ?? 'images']: ['Too many files or an unexpected file field'] },
      });
    }
    return AppError.say('BAD_REQUEST', 'upload.malformed');
  }
  const e = error as { type?: string; status?: number; statusCode?: number; code?: string; message?: string };
  // body-parser and busboy errors carry a `type` or an HTTP status.
  if (e?.type === 'entity.parse.failed') return AppError.say('BAD_REQUEST', 'error.malformedJson');
  if (e?.type === 'entity.too.large') return AppError.say('PAYLOAD_TOO_LARGE', 'error.bodyTooLarge');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (typeof e?.message === 'string' && /^(Multipart|Unexpected end of form|Malformed part header|Boundary not found)/i.test(e.message)) {
    return AppError.say('BAD_REQUEST', 'upload.malformedMultipart');
  }
  if ((e?.code && CONNECTION_ERRORS.has(e.code)) || (isPostgresError(error) && error.code.startsWith('08')) || refusesConnections(error)) {
    return new AppError('UNAVAILABLE', undefined, { cause: error });
  }
  // A deadlock or serialization failure outside auditedTransaction (which runs its work again):
  // the change rolled back whole and may simply be tried again.
  if (isPostgresError(error) && transientConflict(error) !== undefined) {
    return AppError.say('UNAVAILABLE', 'error.busy', undefined, { retryAfter: 1, cause: error });
  }
  // Data exceptions caused by the input itself (a NUL byte Postgres cannot store in text, a number
  // beyond the column's range): the request is bad, the server is not broken.
  if (isPostgresError(error) && INPUT_DATA_ERRORS.has(error.code)) {
    return AppError.say('BAD_REQUEST', 'error.valueCannotBeStored', undefined, { cause: error });
  }
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new AppError('BAD_REQUEST', undefined, { cause: error });
  return new AppError('INTERNAL', undefined, { cause: error });
}

export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(error);
    // Deliberate AppErrors are answers, not incidents; log what was thrown unexpectedly.
    const conflict = transientConflict(error);
    if (conflict !== undefined) {
      // The code only: the driver's error carries the statement and its parameters.
      logger.warn({ code: conflict, method: req.method, url: loggedPath(req.originalUrl) }, 'transaction conflict; answered busy');
    } else if (!(error instanceof AppError) && appError.status >= 500) {
      logger.error({ err: error, method: req.method, url: loggedPath(req.originalUrl) }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if (appError.retryAfter !== undefined) res.setHeader('Retry-After', String(Math.ceil(appError.retryAfter)));
    // The message in the caller's language (docs/architecture.md "Languages"); the envelope stays as it is.
    res.vary('Accept-Language');
    res.status(appError.status).json(
      localiseErrorBody(appError.body, languageFromHeader(req.get('accept-language')), {
        message: appError.said,
        errors: appError.errorsSaid,
      }),
    );
  };
}
