import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Whether Redis can take commands now. While it cannot, the parts that use it degrade instead of
 * failing: counters and limits are kept per process, events reach this process's subscribers
 * only, and /api/health answers "degraded". ioredis reconnects on its own; everything goes back
 * to Redis once it is ready again.
 */
export const isRedisReady = (redis: Redis | null): redis is Redis => redis !== null && redis.status === 'ready';

/** Logs once when Redis becomes unreachable and once when it is back. */
export const watchRedis = (redis: Redis, log: Logger) => {
  let down = false;
  const markDown = (err?: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'Redis is unreachable: limits and events run per process until it is back');
  };
  redis.on('error', (err) => markDown(err));
  redis.on('close', () => markDown());
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is reachable again');
  });
};

/** Resolves when Redis is ready, or after `timeoutMs` whatever its state. */
export const waitUntilReady = (redis: Redis, timeoutMs: number) =>
  new Promise<void>((resolve) => {
    if (redis.status === 'ready') return resolve();
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
