/** A temporary failure: the job is tried again later (after `retryAfterMs` at least, when given). */
export class RetryableJobError extends Error {
  readonly retryAfterMs: number | null;
  constructor(message: string, options: { retryAfterMs?: number | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'RetryableJobError';
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 15 * 60_000;

/**
 * The wait before retry `attempt` (1 = the first retry): 1 s, 2 s, 4 s ... up to 15 minutes, with
 * up to 20 % of jitter so failures of many jobs do not come back together; never shorter than a
 * Retry-After the failure carried.
 */
export const backoffDelayMs = (
  attempt: number,
  options: { retryAfterMs?: number | null; baseMs?: number; maxMs?: number; random?: () => number } = {},
): number => {
  const base = options.baseMs ?? BACKOFF_BASE_MS;
  const max = options.maxMs ?? BACKOFF_MAX_MS;
  const exponential = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exponential * (1 + 0.2 * (options.random ?? Math.random)()));
  return Math.max(Math.min(jittered, max), options.retryAfterMs ?? 0);
};

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now, or null. */
export const parseRetryAfter = (value: string | null | undefined, now = Date.now()): number | null => {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};
