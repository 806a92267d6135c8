import type { ErrorStatus } from '@kura/contract';
import { t, type MessageId, type MessageValues, type Said } from './i18n';

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

const DEFAULT_MESSAGE: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Bad request',
  UNAUTHENTICATED: 'Unauthenticated',
  FORBIDDEN: 'This action is unauthorized',
  NOT_FOUND: 'Not found',
  CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'The upload is too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  CSRF_MISMATCH: 'CSRF token mismatch',
  VALIDATION: 'The given data was invalid',
  TOO_MANY_REQUESTS: 'Too many attempts, please try again later',
  INTERNAL: 'Server error',
  BAD_GATEWAY: 'Could not deliver the message, please try again',
  UNAVAILABLE: 'Service unavailable, please try again shortly',
};

export type AppErrorOptions = {
  issue?: string;
  errors?: Record<string, string[]>;
  /** Seconds, for 429 answers. */
  retryAfter?: number;
  cause?: unknown;
};

/** A failure a service raises on purpose; the error middleware turns it into the error envelope of docs/api.md "Errors". */
export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly issue?: string;
  readonly errors?: Record<string, string[]>;
  readonly retryAfter?: number;
  /** The message by code (a catalogue id and its values), when it was raised so: translated by id, never matched as text. */
  readonly said?: Said;
  /** Each field's messages by code, when raised so (`AppError.fieldsSaid`). */
  readonly errorsSaid?: Record<string, Said[]>;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    options: AppErrorOptions = {},
  ) {
    super(message ?? DEFAULT_MESSAGE[code], { cause: options.cause });
    this.status = ERROR_STATUS[code];
    this.issue = options.issue;
    this.errors = options.errors;
    this.retryAfter = options.retryAfter;
  }

  /**
   * A refusal by code (docs/architecture.md "Errors by code"): the catalogue's message `id` with
   * its typed `values`; the English text is the catalogue's (the spec's wording), and a caller in
   * another language reads the same id from that language's catalogue.
   */
  static say(code: ErrorCode, id: MessageId, values?: MessageValues, options: AppErrorOptions = {}): AppError {
    const error = new AppError(code, t('en', id, values), options);
    Object.assign(error, { said: { id, ...(values ? { values } : {}) } });
    return error;
  }

  /** 422 with each field's messages by code (as `say`), the first as the headline. */
  static fieldsSaid(errors: Record<string, Said[]>): AppError {
    const english = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.map((s) => t('en', s.id, s.values))]));
    const first = Object.values(errors)[0]?.[0];
    const error = AppError.validation(english);
    Object.assign(error, { errorsSaid: errors, ...(first ? { said: first } : {}) });
    return error;
  }

  /** 422 with a message per field, the first field's message as the headline. */
  static validation(errors: Record<string, string[]>, message?: string): AppError {
    const first = Object.values(errors)[0]?.[0];
    return new AppError('VALIDATION', message ?? first ?? DEFAULT_MESSAGE.VALIDATION, { errors });
  }

  get body(): { message: string; issue?: string; errors?: Record<string, string[]> } {
    return {
      message: this.message,
      ...(this.issue ? { issue: this.issue } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}
