/**
 * The two job engines of the job-queue benchmark behind one small interface, on one database: the
 * server's own engine (apps/server/src/platform/jobs, its `jobs` table, its workers) and pg-boss
 * (its own schema, over the same PGlite instance through `fromPglite`, or its own pool on the same
 * PostgreSQL database). Not a benchmark itself.
 *
 * Each engine has three kinds of bench job: `noop` (drained at concurrency 4), `long` (200 ms
 * jobs that keep a second queue busy) and `urgent` (the job whose start is timed).
 * - start() and stop(): the engine's own timers (pg-boss's) run only in between.
 * - enqueue(kind, payload, tx?): one job; in the caller's drizzle transaction when `tx` is given.
 * - work(handlers, options): starts workers for the kinds given; answers the stop function.
 * - clear(): deletes every job the engine holds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { register } from 'tsx/esm/api';

register();
const { loadEnv } = await import('../../../apps/server/src/platform/env.ts');
const { createDeps, closeDeps } = await import('../../../apps/server/src/platform/runtime.ts');
const { enqueueJob, registerJobHandler, startJobWorkers } = await import(
  '../../../apps/server/src/platform/jobs/index.ts'
);
const { sql } = await import('drizzle-orm');
const { PgBoss, fromDrizzle, fromPglite } = await import('pg-boss');

/** Own-engine queues of the kinds: a drain and long jobs share `campaigns` (4 workers), urgent jobs have `interactive`. */
const OWN_QUEUES = { noop: 'campaigns', long: 'campaigns', urgent: 'interactive' };
/** pg-boss queues of the kinds, each with workers of its own. */
const BOSS_QUEUES = { noop: 'bench-drain', long: 'bench-campaigns', urgent: 'bench-interactive' };
/** The pg-boss poll, set to the own engine's JOB_POLL_MS (pg-boss's floor; its default is 2 s). */
const BOSS_POLL_SECONDS = 0.5;

/** The handlers the own engine's registered kinds call; replaced by each `work`. */
let ownHandlers = {};
for (const kind of Object.keys(OWN_QUEUES)) {
  registerJobHandler(
    `bench:${kind}`,
    async (_deps, job) => {
      await ownHandlers[kind]?.(job.payload, job.signal);
      return null;
    },
    OWN_QUEUES[kind],
  );
}

/**
 * Opens the server's dependencies on an in-memory PGlite (no url) or on the PostgreSQL database of
 * `url`, migrated as the server migrates, with the own engine's workers at 4 for `campaigns`.
 */
export const openDeps = async (url) => {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    DATA_DIR: '/tmp/switchboard-job-queue-bench',
    JOB_CONCURRENCY: 'campaigns=4,interactive=2',
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const deps = await createDeps(env, { database: url ? { url, poolSize: 10 } : { dataDir: 'memory://' } });
  return { deps, close: () => closeDeps(deps) };
};

/** The server's own engine: enqueueJob, and startJobWorkers for every queue with kinds (and the recurring upkeep). */
export const ownEngine = (deps) => ({
  name: 'own engine',
  enqueue: (kind, payload, tx) => enqueueJob(deps, { type: `bench:${kind}`, payload }, tx),
  work: async (handlers) => {
    ownHandlers = handlers;
    const stop = startJobWorkers(deps);
    return async () => {
      await stop(2_000);
      ownHandlers = {};
    };
  },
  clear: () => deps.db.execute(sql`DELETE FROM jobs`),
  jobsWith: async (marker) =>
    Number((await deps.db.execute(sql`SELECT count(*) AS n FROM jobs WHERE payload->>'marker' = ${marker}`)).rows[0].n),
  start: async () => {},
  stop: async () => {},
});

/**
 * pg-boss on the same database: over the server's PGlite instance, or with a pool of its own (10
 * connections, as the server's) on PostgreSQL. LISTEN/NOTIFY is on, and the urgent queue asks for
 * it, so an urgent job wakes its workers at once as the own engine's enqueue does. Each `start`
 * starts a new instance (the first installs its schema) and `stop` stops it, so its timers run only
 * while it is measured.
 */
export const pgBossEngine = (deps, url) => {
  let boss = null;
  const errors = [];
  const installed = { ms: null };
  /** Worker options per kind: per-job claims, or batches of 4 fetched again at once while full. */
  const workOptions = (kind, batched) => {
    if (kind === 'long') return { localConcurrency: 4, batchSize: 2, burstWhenBatchFull: true };
    if (kind === 'urgent') return { localConcurrency: 2 };
    return batched ? { localConcurrency: 4, batchSize: 4, burstWhenBatchFull: true } : { localConcurrency: 4 };
  };
  return {
    name: 'pg-boss',
    errors,
    installed,
    start: async () => {
      boss = new PgBoss({
        ...(url ? { connectionString: url, max: 10 } : { db: fromPglite(deps.db.$client), backend: 'pglite' }),
        useListenNotify: true,
      });
      boss.on('error', (error) => errors.push(error.message));
      const started = performance.now();
      await boss.start();
      installed.ms ??= performance.now() - started;
      await boss.createQueue(BOSS_QUEUES.noop);
      await boss.createQueue(BOSS_QUEUES.long);
      await boss.createQueue(BOSS_QUEUES.urgent, { notify: true });
    },
    enqueue: (kind, payload, tx) =>
      boss.send(BOSS_QUEUES[kind], payload, tx ? { db: fromDrizzle(tx, sql) } : undefined),
    work: async (handlers, { batched = false } = {}) => {
      const kinds = Object.keys(handlers);
      for (const kind of kinds) {
        await boss.work(
          BOSS_QUEUES[kind],
          { ...workOptions(kind, batched), pollingIntervalSeconds: BOSS_POLL_SECONDS },
          // A batch's jobs run one after another, as the batch's worker holds one slot.
          async (jobs) => {
            for (const job of jobs) await handlers[kind](job.data, job.signal);
          },
        );
      }
      return async () => {
        for (const kind of kinds) await boss.offWork(BOSS_QUEUES[kind], { wait: true });
      };
    },
    clear: async () => {
      for (const name of Object.values(BOSS_QUEUES)) await boss.deleteAllJobs(name);
    },
    jobsWith: async (marker) =>
      Number(
        (await deps.db.execute(sql`SELECT count(*) AS n FROM pgboss.job WHERE data->>'marker' = ${marker}`)).rows[0].n,
      ),
    stop: async () => {
      await boss.stop({ graceful: false, timeout: 2_000 });
      boss = null;
    },
    /** Tables and functions of its schema. */
    footprint: async () => {
      const row = (
        await deps.db.execute(sql`
          SELECT (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'pgboss') AS tables,
                 (SELECT count(*) FROM information_schema.routines WHERE routine_schema = 'pgboss') AS functions`)
      ).rows[0];
      return { tables: Number(row.tables), functions: Number(row.functions) };
    },
  };
};

/** Sleeps `ms`, or rejects as soon as `signal` is aborted. */
export const sleepUnless = (ms, signal) => sleep(ms, undefined, { signal });

/**
 * Counts the statements sent to the database while `counting` is on: on PostgreSQL every query of
 * node-postgres (the server's pool and pg-boss's), on PGlite every call into its PostgreSQL.
 */
export const statementCounter = async (deps) => {
  const counter = { on: false, n: 0 };
  if (deps.database.driver === 'postgres') {
    const { default: pg } = await import('pg');
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function counted(...args) {
      if (counter.on) counter.n += 1;
      return query.apply(this, args);
    };
  } else {
    const client = deps.db.$client;
    const stream = client.execProtocolStream;
    client.execProtocolStream = (...args) => {
      if (counter.on) counter.n += 1;
      return stream(...args);
    };
  }
  return {
    /** The statements sent during `ms` milliseconds from now. */
    during: async (ms) => {
      counter.n = 0;
      counter.on = true;
      await sleep(ms);
      counter.on = false;
      return counter.n;
    },
  };
};
