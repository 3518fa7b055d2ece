import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { createSession, SESSION_COOKIE } from '../features/auth/session';
import { flushMetering } from '../features/llm/credits';
import type { Deps } from '../platform/deps';
import { type Env, loadEnv } from '../platform/env';
import { startJobWorkers } from '../platform/jobs';
import { closeDeps, createDeps } from '../platform/runtime';
import { testDatabaseImage } from './database-image';
import { createScratchDatabase } from './scratch-database';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  /** A Cookie header for a session of the user. */
  cookieFor(userId: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens the dependencies (database, Redis, event bus) for a test: an in-memory PGlite by default,
 * or, when DATABASE_URL is set, a PostgreSQL database of its own that is dropped on close, so row
 * locks are really contended. Redis is used when REDIS_URL is set.
 */
export const openTestDeps = async (overrides: Record<string, string> = {}) => {
  const env: Env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    DATA_DIR: '/tmp/switchboard-test',
    // As every process of a deployment on PostgreSQL has (production refuses to start without it).
    ENCRYPTION_KEY: 'a5'.repeat(32),
    // Every test request comes from one address; the tests of these limits set their own.
    SIGNIN_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000',
    PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
    WEBHOOK_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
    API_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
    API_KEY_RATE_LIMIT_PER_MINUTE: '10000000',
    FAILED_ATTEMPTS_PER_ADDRESS_PER_MINUTE: '1000000',
    STREAMS_PER_ADDRESS: '1000000',
    STREAMS_PER_KEY: '1000000',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // Each test app has keys of its own in a shared Redis, so limits never leak between tests.
    REDIS_PREFIX: `sbtest:${randomBytes(4).toString('hex')}:`,
    ...overrides,
  });
  const scratch = env.DATABASE_URL ? await createScratchDatabase(env.DATABASE_URL) : null;
  const deps = await createDeps(scratch ? { ...env, DATABASE_URL: scratch.url } : env, {
    // The production pool size (DATABASE_POOL_SIZE, 10): test files run side by side, each with its
    // own apps, and PostgreSQL's 100 connections must hold them all.
    database: scratch
      ? { url: scratch.url, poolSize: env.DATABASE_POOL_SIZE }
      : { dataDir: 'memory://', image: await testDatabaseImage() },
  });
  return {
    deps,
    driver: scratch ? ('postgres' as const) : ('pglite' as const),
    close: async () => {
      await closeDeps(deps);
      await scratch?.drop();
    },
  };
};

/** Starts the real app for an integration test on the dependencies of openTestDeps. */
export const startTestApp = async (overrides: Record<string, string> = {}): Promise<TestApp> => {
  const opened = await openTestDeps(overrides);
  const { deps } = opened;
  const { app } = await buildApp(deps);
  await app.ready();
  const stopJobWorkers = startJobWorkers(deps);
  return {
    app,
    deps,
    async cookieFor(userId) {
      const session = await createSession(deps.db, deps.env, userId);
      return `${SESSION_COOKIE}=${session.token}`;
    },
    async close() {
      await stopJobWorkers();
      await app.close();
      await flushMetering();
      await opened.close();
    },
  };
};
