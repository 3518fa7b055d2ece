/**
 * App processes of the built server on PostgreSQL (a scratch database, dropped after) and Redis
 * (keys under a prefix of the run's own, deleted after) behind HAProxy: the deployment of the
 * chaos and capacity benchmarks. Not a benchmark itself.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call, freePort, sleep } from '../widget-support.js';
import { onCleanup } from './cleanup.mjs';
import { createFleet } from './fleet.mjs';
import { startHaproxy } from './haproxy.mjs';
import { createScratchDatabase } from './scratch-database.mjs';

/**
 * A scratch database `<prefix>_<time>` on BENCH_DATABASE_URL's server (127.0.0.1:5432 by default)
 * with a client on it, and a key prefix of the run's own on BENCH_REDIS_URL (127.0.0.1:6379);
 * both are removed when the run cleans up.
 */
export const startPostgresAndRedis = async (prefix) => {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await createScratchDatabase(adminUrl, prefix).catch((error) => {
    throw new Error(`PostgreSQL at ${adminUrl} could not create a scratch database: ${error.message}`);
  });
  onCleanup('drop the scratch database', database.drop);
  const db = new pg.Client({ connectionString: database.url });
  db.on('error', () => undefined);
  await db.connect();
  onCleanup('close the database client', () => db.end());

  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `${prefix.replace(/[^a-z0-9]/gi, '')}${Date.now().toString(36)}:`;
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 3000, lazyConnect: true });
  await redis.connect().catch((error) => {
    throw new Error(`Redis at ${redisUrl} could not be reached: ${error.message}`);
  });
  onCleanup('delete the run’s Redis keys', async () => {
    for await (const keys of redis.scanStream({ match: `${redisPrefix}*`, count: 500 }))
      if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
  });
  return { database, db, redisUrl, redisPrefix };
};

/** Which path answers readiness: /api/health/ready when the server has it, /api/health otherwise. */
export const healthPath = async (base) =>
  (await call(`${base}/api/health/ready`, { timeoutMs: 5000 })).status === 200 ? '/api/health/ready' : '/api/health';

/** Waits until HAProxy's checks see all `count` processes up. */
export const waitAllUp = async (lb, count, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const states = Object.values(await lb.states()).map((state) => state.status);
    if (states.length === count && states.every((state) => state === 'UP')) return;
    if (Date.now() > until) throw new Error(`HAProxy does not see every process up: ${states.join(', ')}`);
    await sleep(250);
  }
};

/**
 * `processes` app processes on the database and Redis of `infra` behind HAProxy, their logs and
 * data folders in `dir`. The first process migrates the database and seeds the demo agency;
 * `afterFirst(slot)`, when given, runs once it answers (setup that must precede the others); the
 * others start after. `env` is added to the processes' environment.
 */
export const startCluster = async ({ infra, processes, dir, stubUrl, env = {}, afterFirst }) => {
  // Every process needs a port of its own (BENCH_PORT names one).
  delete process.env.BENCH_PORT;
  const ports = [];
  for (let i = 0; i < processes; i += 1) ports.push(await freePort());
  const lbPort = await freePort();
  const lbUrl = `http://127.0.0.1:${lbPort}`;
  const fleet = createFleet({
    ports,
    dir,
    stubUrl,
    env: {
      DATABASE_URL: infra.database.url,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: infra.redisPrefix,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: lbUrl,
      TRUST_PROXY: '127.0.0.1',
      ...env,
    },
  });
  onCleanup('stop the app processes', fleet.stop, fleet.killNow);
  await fleet.start(fleet.slots[0]);
  if (afterFirst) await afterFirst(fleet.slots[0]);
  await Promise.all(fleet.slots.slice(1).map((slot) => fleet.start(slot)));
  const checkPath = await healthPath(fleet.slots[0].base);
  const lb = await startHaproxy({ port: lbPort, servers: ports, checkPath, dir });
  onCleanup('stop HAProxy', lb.stop, lb.kill);
  await waitAllUp(lb, processes);
  return { fleet, lb, lbUrl, checkPath };
};
