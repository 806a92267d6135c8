/**
 * The one reader of failed calls. The server answers every refusal with one envelope,
 * `{message, issue?, errors?}` (docs/api.md "Errors"); the ts-rest client hands it over as
 * `{status, body}`, and a network failure arrives as an Error.
 */
type ErrorEnvelope = { message?: unknown; issue?: unknown; errors?: Record<string, string[] | undefined> };

function statusOf(error: unknown): number | undefined {
  const s = (error as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

function envelopeOf(error: unknown): ErrorEnvelope | undefined {
  const body = (error as { body?: unknown } | null)?.body;
  return body && typeof body === 'object' ? (body as ErrorEnvelope) : undefined;
}

/** The server's `message` from an error envelope, or the Error's message, or undefined. */
export function errorMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const m = envelopeOf(error)?.message;
  if (typeof m === 'string' && m) return m;
  if (error instanceof Error && error.message) return error.message;
  return undefined;
}

/** The envelope's `issue` text, if any (docs/screens.md: 'No such user exists'). */
export function errorIssue(error: unknown): string | undefined {
  const i = envelopeOf(error)?.issue;
  return typeof i === 'string' && i ? i : undefined;
}

export function errorStatus(error: unknown): number | undefined {
  return statusOf(error);
}

/** A 429's Retry-After in whole seconds, if the answer carried one. */
export function errorRetryAfter(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  const value = headers instanceof Headers ? headers.get('Retry-After') : null;
  const seconds = value === null ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/** First validation message of a 422, if any. */
export function firstFieldError(error: unknown): string | undefined {
  const errs = envelopeOf(error)?.errors;
  if (!errs) return undefined;
  for (const list of Object.values(errs)) if (list?.[0]) return list[0];
  return undefined;
}

/** Field messages of a 422 (`errors` of the envelope), first message per field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const errs = envelopeOf(error)?.errors;
  const out: Record<string, string> = {};
  if (errs) for (const [k, v] of Object.entries(errs)) if (v?.[0]) out[k.replace(/\[\]$/, '').split('.')[0]!] ??= v[0];
  return out;
}

/** First message per field of a failed zod parse (the same shape as fieldErrorsOf, checked before sending). */
export function zodFieldErrors(issues: { path: (string | number)[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = String(i.path[0] ?? 'form');
    out[key] ??= i.message;
  }
  return out;
}

/** The server's reason when it withholds results (403 under the election's results visibility). */
export function hiddenResultsText(query: { isError: boolean; error: unknown }): string | undefined {
  if (!query.isError) return undefined;
  const m = envelopeOf(query.error)?.message;
  return statusOf(query.error) === 403 && typeof m === 'string' ? m : undefined;
}

/**
 * The app's retry rule for reads: a refusal (4xx: forbidden by the results visibility, not found,
 * signed out) answers the same the second time, so the screen shows it at once; a network failure
 * or a 5xx is tried once more, and so is a 429 (a burst's limit may have passed a second later).
 */
export function retryRead(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) return false;
  return failureCount < 1;
}
