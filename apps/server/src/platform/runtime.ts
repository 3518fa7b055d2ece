import path from 'node:path';
import pino, { type Logger } from 'pino';
import { type OpenDatabaseOptions, openDatabase } from '../db/client';
import type { Deps } from './deps';
import type { Env } from './env';
import { createLocalBus, createRedisBus } from './event-bus';
import { createPostgresBus } from './event-bus-pg';
import { defaultOrigin } from './http';
import { waitUntilReady, watchRedis } from './redis-health';
import { defineRedisScripts } from './redis-scripts';

export interface RuntimeOptions {
  /** Overrides of how the database is opened (tests use an in-memory PGlite or their own schema). */
  database?: OpenDatabaseOptions;
  log?: Logger;
}

/**
 * Readable log lines, formatted in this thread and written as they come. Pino's `transport` would
 * format them in a worker thread: a second Node environment, about 10 MB more for the life of a
 * server that writes a line per request.
 */
export const prettyLogger = async (env: Pick<Env, 'LOG_LEVEL'>, destination: number | string = 1): Promise<Logger> => {
  const { default: pretty } = await import('pino-pretty');
  // One line per entry: the request line and its fields stay together.
  const lines = pretty({
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
    destination,
  });
  return pino({ level: env.LOG_LEVEL }, lines);
};

/** Opens the database, Redis and the event bus the environment asks for. */
export const createDeps = async (env: Env, options: RuntimeOptions = {}): Promise<Deps> => {
  const format = env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty');
  const log =
    options.log ??
    (format === 'pretty' && env.NODE_ENV !== 'test' ? await prettyLogger(env) : pino({ level: env.LOG_LEVEL }));
  // The AI SDK's warnings (unsupported settings of a provider) go to the log, not to the console.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: {
    warnings: unknown[];
    provider?: string;
    model?: string;
  }) => log.debug({ warnings: options.warnings, provider: options.provider, model: options.model }, 'AI SDK warnings');
  const database = await openDatabase(
    options.database ?? {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      dataDir: path.join(env.DATA_DIR, 'pglite'),
      sharedBuffers: env.PGLITE_SHARED_BUFFERS,
      wasmTiers: env.PGLITE_WASM_TIERS,
    },
  );
  // Auto-pipelining sends the commands of one event loop turn (limits, events of many requests)
  // in one write. While Redis is unreachable commands fail at once (no offline queue), so callers
  // fall back to per-process counters and the in-process bus instead of waiting (see isRedisReady).
  // ioredis is loaded only when REDIS_URL is set.
  const redis = env.REDIS_URL
    ? new (await import('ioredis')).Redis(env.REDIS_URL, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 2000,
        enableAutoPipelining: true,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      })
    : null;
  if (redis) {
    defineRedisScripts(redis);
    watchRedis(redis, log);
    // Start on Redis when it is there (a short wait); otherwise start degraded and switch when it comes.
    await waitUntilReady(redis, 2000);
  }
  // Without Redis, the processes on one PostgreSQL share events through LISTEN/NOTIFY.
  const pgUrl = database.driver === 'postgres' ? (options.database?.url ?? env.DATABASE_URL) : undefined;
  const bus = redis
    ? createRedisBus(redis, `${env.REDIS_PREFIX}bus:`)
    : pgUrl
      ? await createPostgresBus({ url: pgUrl })
      : createLocalBus();
  return {
    env,
    db: database.db,
    database,
    redis,
    bus,
    log,
    publicUrl: defaultOrigin(env),
  };
};

export const closeDeps = async (deps: Deps) => {
  await deps.bus.close();
  deps.redis?.disconnect();
  await deps.database.close();
};
