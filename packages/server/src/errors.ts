import { readSaid, type ErrorStatus } from '@kura/contract';
import type { ZodIssue } from 'zod';
import { NoSuchElection } from './db/errors';
import { t, tSaid, type MessageId, type Said, type SaidValues } from './i18n';

/** Domain error codes and the HTTP status each maps to: the one place this mapping lives. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CSRF_MISMATCH: 419,
  VALIDATION: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
} as const satisfies Record<string, ErrorStatus>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Each code's message when a refusal says nothing more, by catalogue id (its English is the wire's). */
const DEFAULT_SAID: Record<ErrorCode, MessageId> = {
  BAD_REQUEST: 'error.badRequest',
  UNAUTHENTICATED: 'error.unauthenticated',
  FORBIDDEN: 'error.forbidden',
  NOT_FOUND: 'error.notFound',
  CONFLICT: 'error.conflict',
  PAYLOAD_TOO_LARGE: 'error.payloadTooLarge',
  UNSUPPORTED_MEDIA_TYPE: 'error.unsupportedMediaType',
  CSRF_MISMATCH: 'error.csrfMismatch',
  VALIDATION: 'error.validation',
  TOO_MANY_REQUESTS: 'error.tooManyRequests',
  INTERNAL: 'error.internal',
  BAD_GATEWAY: 'error.badGateway',
  UNAVAILABLE: 'error.unavailable',
};

export type AppErrorOptions = {
  issue?: string;
  errors?: Record<string, string[]>;
  /** Seconds, for 429 answers. */
  retryAfter?: number;
  cause?: unknown;
};

/**
 * A text with no code: zod's own wording for a shape no schema words ("Invalid enum value…"), sent
 * as it is in every language. Marked so a message written as a plain string in the server does not
 * compile where one by code belongs.
 */
export type UncodedText = string & { readonly uncoded: true };
/** One message of a field: by code, or zod's own text. */
export type FieldMessage = Said | UncodedText;

/**
 * A message the contract's schemas or shared checks gave (`said` there: a code and its values) as
 * the server says it; zod's own text by the issue it words where the catalogue has it ("Required",
 * "Expected number, received string"); any other text as it is.
 */
export function fromContract(message: string, issue?: ZodIssue): FieldMessage {
  const found = readSaid(message);
  if (found) return { id: found.id, values: found.values as SaidValues };
  if (issue?.code === 'invalid_type') {
    if (message === 'Required' && issue.received === 'undefined') return { id: 'zod.required' };
    if (message === `Expected ${issue.expected}, received ${issue.received}`)
      return { id: 'zod.invalidType', values: { expected: issue.expected, received: issue.received } };
  }
  if (issue?.code === 'invalid_union' && message === 'Invalid input') return { id: 'zod.invalidInput' };
  return message as UncodedText;
}

/** A failure a service raises on purpose; the error middleware turns it into the error envelope of docs/api.md "Errors". */
export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly issue?: string;
  readonly errors?: Record<string, string[]>;
  readonly retryAfter?: number;
  /** The message by code (a catalogue id and its values), when it was raised so: translated by id, never matched as text. */
  readonly said?: Said;
  /** Each field's messages by code, when raised so (`AppError.fields`): null for a contract's text. */
  readonly errorsSaid?: Record<string, (Said | null)[]>;

  /**
   * `message` is for this file and the validation of the contract's schemas only (their English
   * texts); every other refusal is raised by code (`say`, `fieldsSaid`), or with no message, which
   * says its code's default by code. The catalogue test refuses a message written anywhere else.
   */
  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? t('en', DEFAULT_SAID[code]), { cause: options.cause });
    this.status = ERROR_STATUS[code];
    this.issue = options.issue;
    this.errors = options.errors;
    this.retryAfter = options.retryAfter;
    if (message === undefined) this.said = { id: DEFAULT_SAID[code] };
  }

  /**
   * A refusal by code (docs/architecture.md "Errors by code"): the catalogue's message `id` with
   * its typed `values`; the English text is the catalogue's (the spec's wording), and a caller in
   * another language reads the same id from that language's catalogue.
   */
  static say(code: ErrorCode, id: MessageId, values?: SaidValues, options: AppErrorOptions = {}): AppError {
    const error = new AppError(code, tSaid('en', { id, ...(values ? { values } : {}) }), options);
    Object.assign(error, { said: { id, ...(values ? { values } : {}) } });
    return error;
  }

  /** As `say`, with the English text as the `issue` too (the clients compare `issue` against the spec's words). */
  static sayIssue(code: ErrorCode, id: MessageId, values?: SaidValues, options: AppErrorOptions = {}): AppError {
    return AppError.say(code, id, values, { ...options, issue: tSaid('en', { id, ...(values ? { values } : {}) }) });
  }

  /** 422 with each field's messages by code (as `say`), the first as the headline. */
  static fieldsSaid(errors: Record<string, Said[]>): AppError {
    return AppError.fields(errors);
  }

  /** 422 with each field's messages (by code, or zod's own text); the headline `headline`, else the first. */
  static fields(errors: Record<string, FieldMessage[]>, headline?: Said): AppError {
    const english = Object.fromEntries(
      Object.entries(errors).map(([k, v]) => [k, v.map((m) => (typeof m === 'string' ? m : tSaid('en', m)))]),
    );
    const said = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.map((m) => (typeof m === 'string' ? null : m))]));
    const first = headline ?? Object.values(errors)[0]?.[0];
    const error = AppError.validation(english, headline ? tSaid('en', headline) : undefined);
    Object.assign(error, { errorsSaid: said, ...(first && typeof first !== 'string' ? { said: first } : {}) });
    return error;
  }

  /** A 422's field messages as `fields` takes them (to merge one check's refusal into another's). */
  get fieldMessages(): Record<string, FieldMessage[]> {
    return Object.fromEntries(
      Object.entries(this.errors ?? {}).map(([k, v]) => [k, v.map((m, i) => this.errorsSaid?.[k]?.[i] ?? (m as UncodedText))]),
    );
  }

  /** 422 with a message per field, the first field's message as the headline. */
  static validation(errors: Record<string, string[]>, message?: string): AppError {
    const first = Object.values(errors)[0]?.[0];
    return first === undefined && message === undefined
      ? new AppError('VALIDATION', undefined, { errors })
      : new AppError('VALIDATION', message ?? first, { errors });
  }

  get body(): { message: string; issue?: string; errors?: Record<string, string[]> } {
    return {
      message: this.message,
      ...(this.issue ? { issue: this.issue } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/**
 * The refusal a failure answers: an AppError as it is, a store's own failure (`NoSuchElection`) as
 * the refusal it means; undefined for anything else (a fault, not a refusal). Code that tells a
 * refusal from a fault asks this, not `instanceof AppError`.
 */
export function refusalOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof NoSuchElection) return AppError.say('NOT_FOUND', 'election.noSuch');
  return undefined;
}
