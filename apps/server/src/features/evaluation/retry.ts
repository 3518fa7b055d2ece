import { AppError } from '../../platform/errors';
import type { RunContext } from './conversation';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const isRateLimited = (error: unknown) =>
  error instanceof AppError
    ? error.code === 'RATE_LIMIT_EXCEEDED' || error.status === 429
    : error instanceof Error && /rate.?limit|429/i.test(error.message);

/** Retries a model call while the provider answers with a rate limit (exponential backoff with jitter). */
export const withRetry = async <T>(
  ctx: Pick<RunContext, 'maxRetries' | 'signal'>,
  call: () => Promise<T>,
): Promise<T> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isRateLimited(error) || attempt >= ctx.maxRetries || ctx.signal.aborted) throw error;
      const delay = Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random());
      await sleep(delay, ctx.signal);
    }
  }
};
