import type { FastifyRequest } from 'fastify';
import { incrementCounters } from './counters';
import type { Deps } from './deps';
import { AppError } from './errors';

/**
 * A per-address (client IP) limit of requests per minute for public routes that anyone can call
 * (sign-in links, pre-registration, the email check), counted where the widget's limits are
 * (Redis, or the database). Used as a route's `onRequest` hook, so it runs before the body is read.
 */
export const addressLimit =
  (deps: Deps, name: string, perMinute: number) =>
  async (request: FastifyRequest): Promise<void> => {
    const minute = String(Math.floor(Date.now() / 60_000));
    const [count = 0] = await incrementCounters(deps, [
      { key: `a:${name}:${request.ip}`, window: minute, ttlSeconds: 120 },
    ]);
    if (count > perMinute) {
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        'Too many requests from your address. Please wait a minute and try again.',
      );
    }
  };
