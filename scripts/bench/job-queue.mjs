#!/usr/bin/env node
/**
 * Job engine benchmark: the server's own queue (apps/server/src/platform/jobs: enqueueJob,
 * startJobWorkers, the `jobs` table) beside pg-boss, in one run, on the same database: the
 * embedded PGlite (in memory, migrated as the server migrates; pg-boss over the same instance
 * through `fromPglite`) and PostgreSQL (a throwaway database on BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; skipped with a line when unreachable). Figures, each
 * printed for both engines beside each other:
 * - enqueue: N = 5,000 single enqueues one after another (jobs/s);
 * - drain: the N queued no-op jobs run by 4 workers (jobs/s, time to the last handler). pg-boss's
 *   workers wait out their poll (0.5 s, its floor) after every fetch unless a batch came back full,
 *   so it is measured twice: one job per fetch (over a 3 s window), and batches of 4 fetched again
 *   at once while full (its throughput setting; a batch is settled together);
 * - urgent latency: enqueue to handler start of 200 jobs, one at a time, p50 and p95, while a second
 *   queue keeps 4 workers busy with 200 ms jobs (own engine: `interactive` beside `campaigns`;
 *   pg-boss: two queues, the urgent one woken by LISTEN/NOTIFY, the busy one fetching batches of 2
 *   again at once so that its 4 workers do not idle out their poll between jobs);
 * - transactional enqueue: a row and a job written in one drizzle transaction (transactions/s from
 *   the mean, and the p50), and whether a rollback leaves no job;
 * - idle: statements the engine sends in 5 s with its workers started and nothing queued (on PGlite,
 *   calls into its PostgreSQL).
 * The reference each is printed beside is the other engine; each property is measured for the own
 * engine and then for pg-boss, which runs only for its turns. Whole run: about 2.5 minutes.
 */
import { createScratchDatabase } from './lib/scratch-database.mjs';

const { openDeps, ownEngine, pgBossEngine, sleepUnless, statementCounter } = await import('./lib/job-engines.mjs');
const { sql } = await import('drizzle-orm');

const N = 5_000;
const WORKERS = 4;
const LONG_MS = 200;
const LONG_JOBS = 300;
const SAMPLES = 200;
const SAMPLE_DEADLINE_MS = 15_000;
const PER_JOB_WINDOW_MS = 3_000;
const TRANSACTIONS = 200;
const IDLE_MS = 5_000;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const rate = (count, ms) => (count * 1000) / ms;
const fmt = (value, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const until = async (check, timeoutMs, what) => {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(2);
  }
};

/** (a) N enqueues one after another, after 200 to warm up; the N jobs stay queued for the drain. */
const measureEnqueue = async (engine) => {
  for (let i = 0; i < 200; i += 1) await engine.enqueue('noop', { warm: i });
  await engine.clear();
  const started = performance.now();
  for (let i = 0; i < N; i += 1) await engine.enqueue('noop', { i });
  return { perSecond: rate(N, performance.now() - started) };
};

/** (b) The queued jobs run by the engine's workers, from their start to the last handler (or over a window). */
const measureDrain = async (engine, options, { count = N, windowMs = null } = {}) => {
  let done = 0;
  const started = performance.now();
  const stop = await engine.work(
    {
      noop: async () => {
        done += 1;
      },
    },
    options,
  );
  if (windowMs) await sleep(windowMs);
  else await until(() => done >= count, 120_000, `${count} jobs to drain`);
  const ms = performance.now() - started;
  const ran = done;
  await stop();
  return { ran, ms, perSecond: rate(ran, ms), total: done };
};

/**
 * (c) Idle statements first (workers started, nothing queued), then urgent jobs one at a time while
 * 4 workers of the other queue run 200 ms jobs; each sample records the long jobs running at its start.
 */
const measureLatency = async (engine, counter) => {
  let running = 0;
  const waiting = new Map();
  const stop = await engine.work({
    long: async (_payload, signal) => {
      running += 1;
      try {
        await sleepUnless(LONG_MS, signal);
      } finally {
        running -= 1;
      }
    },
    urgent: async (payload) => waiting.get(payload.i)?.(performance.now()),
  });
  try {
    await sleep(1_000);
    const idle = await counter.during(IDLE_MS);
    for (let i = 0; i < LONG_JOBS; i += 1) await engine.enqueue('long', { i });
    await until(() => running >= WORKERS, 10_000, 'the long jobs to start');
    const latencies = [];
    const busy = [];
    const deadline = performance.now() + SAMPLE_DEADLINE_MS;
    for (let i = 0; i < SAMPLES && performance.now() < deadline; i += 1) {
      busy.push(running);
      const start = new Promise((resolve) => waiting.set(i, resolve));
      const sent = performance.now();
      await engine.enqueue('urgent', { i });
      latencies.push((await start) - sent);
      waiting.delete(i);
      await sleep(5 + (i % 4) * 5);
    }
    return {
      idle,
      samples: latencies.length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      busy: busy.reduce((sum, value) => sum + value, 0) / busy.length,
    };
  } finally {
    await stop();
    await engine.clear();
  }
};

/** (d) A row and a job in one drizzle transaction, then a transaction that rolls back after its enqueue. */
const measureTransactional = async (deps, engine) => {
  const times = [];
  for (let i = 0; i < TRANSACTIONS; i += 1) {
    const started = performance.now();
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO bench_orders (note) VALUES (${`order ${i}`})`);
      await engine.enqueue('noop', { order: i }, tx);
    });
    times.push(performance.now() - started);
  }
  const marker = `rollback-${engine.name}`;
  await deps.db
    .transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO bench_orders (note) VALUES ('rolled back')`);
      await engine.enqueue('noop', { marker }, tx);
      throw new Error('rollback');
    })
    .catch(() => undefined);
  const left = await engine.jobsWith(marker);
  await engine.clear();
  const total = times.reduce((sum, value) => sum + value, 0);
  return { perSecond: rate(TRANSACTIONS, total), p50: percentile(times, 50), rollbackLeaves: left };
};

/** (a) then (b): the enqueued jobs are the ones drained. */
const measureQueue = async (engine) => {
  const enqueue = await measureEnqueue(engine);
  const drains = [];
  if (engine.name === 'pg-boss') {
    const perJob = await measureDrain(engine, { batched: false }, { windowMs: PER_JOB_WINDOW_MS });
    drains.push({ label: '1 job per fetch', ...perJob });
    const batched = await measureDrain(engine, { batched: true }, { count: N - perJob.total });
    drains.push({ label: 'batches of 4', ...batched });
  } else {
    drains.push({ label: '1 job per claim', ...(await measureDrain(engine, {})) });
  }
  await engine.clear();
  return { enqueue, drains };
};

/** Each measure for the own engine, then for pg-boss, each engine started only for its turn. */
const measureBoth = async (engines, measure) => {
  const results = [];
  for (const engine of engines) {
    await engine.start();
    try {
      results.push(await measure(engine));
    } finally {
      await engine.stop();
    }
  }
  return results;
};

const row = (label, own, boss) => console.log(`  ${label.padEnd(34)} ${own.padEnd(30)} ${boss}`);

const printResults = (label, own, boss, extra) => {
  console.log(`\n[${label}]`);
  row('', 'own engine', 'pg-boss');
  row('(a) enqueue, one at a time', `${fmt(own.enqueue.perSecond)} jobs/s`, `${fmt(boss.enqueue.perSecond)} jobs/s`);
  const drain = (d) => `${fmt(d.perSecond)} jobs/s (${fmt(d.ran)} in ${fmt(d.ms / 1000, 2)} s)`;
  row(`(b) drain, ${WORKERS} workers`, drain(own.drains[0]), `${drain(boss.drains[0])}, ${boss.drains[0].label}`);
  row('', '', `${drain(boss.drains[1])}, ${boss.drains[1].label}`);
  const latency = (l) => `p50 ${fmt(l.p50, 1)} ms, p95 ${fmt(l.p95, 1)} ms`;
  row('(c) urgent job, enqueue to start', latency(own.latency), latency(boss.latency));
  const busy = (l) => `${l.samples} samples, ${fmt(l.busy, 1)} of 4 busy`;
  row('    other queue busy', busy(own.latency), busy(boss.latency));
  const tx = (t) => `yes: ${fmt(t.perSecond)} tx/s, p50 ${fmt(t.p50, 2)} ms`;
  row('(d) enqueue in caller transaction', tx(own.transactional), tx(boss.transactional));
  const rollback = (t) => (t.rollbackLeaves === 0 ? 'rollback leaves no job' : `${t.rollbackLeaves} job LEFT`);
  row('    after a rollback', rollback(own.transactional), rollback(boss.transactional));
  row(`idle statements in ${IDLE_MS / 1000} s`, fmt(own.latency.idle), fmt(boss.latency.idle));
  row('schema', 'jobs, recurring_tasks (drizzle)', `${extra.tables} tables, ${extra.functions} functions in pgboss`);
  row('', '', `installed at first start in ${fmt(extra.installMs)} ms`);
  if (extra.errors.length) console.log(`  pg-boss errors: ${[...new Set(extra.errors)].join('; ')}`);

  const times = (a, b) => `${(a / b).toFixed(1)}x`;
  console.log(`  verdict (${label}):`);
  console.log(
    `    enqueue: own engine ${fmt(own.enqueue.perSecond)} jobs/s vs pg-boss ${fmt(boss.enqueue.perSecond)} jobs/s (${times(own.enqueue.perSecond, boss.enqueue.perSecond)})`,
  );
  console.log(
    `    drain: own engine ${fmt(own.drains[0].perSecond)} jobs/s vs pg-boss ${fmt(boss.drains[1].perSecond)} jobs/s in batches of 4, ${fmt(boss.drains[0].perSecond)} jobs/s one per fetch`,
  );
  console.log(
    `    urgent job under load: own engine p95 ${fmt(own.latency.p95, 1)} ms vs pg-boss p95 ${fmt(boss.latency.p95, 1)} ms (LISTEN/NOTIFY)`,
  );
  console.log(
    `    transactional enqueue: both yes; own engine ${fmt(own.transactional.perSecond)} tx/s vs pg-boss ${fmt(boss.transactional.perSecond)} tx/s (fromDrizzle)`,
  );
  console.log(`    idle: own engine ${fmt(own.latency.idle)} statements vs pg-boss ${fmt(boss.latency.idle)} in 5 s`);
};

/** Both engines on one database, property by property: the own engine first, then pg-boss. */
const runOn = async (label, url) => {
  const openStarted = performance.now();
  const { deps, close } = await openDeps(url);
  console.log(`${label}: opened and migrated in ${fmt((performance.now() - openStarted) / 1000, 1)} s`);
  try {
    await deps.db.execute(sql`CREATE TABLE bench_orders (id serial PRIMARY KEY, note text NOT NULL)`);
    const counter = await statementCounter(deps);
    const boss = pgBossEngine(deps, url);
    const engines = [ownEngine(deps), boss];
    const queue = await measureBoth(engines, measureQueue);
    const latency = await measureBoth(engines, (engine) => measureLatency(engine, counter));
    const transactional = await measureBoth(engines, (engine) => measureTransactional(deps, engine));
    const [own, bossResults] = [0, 1].map((i) => ({
      ...queue[i],
      latency: latency[i],
      transactional: transactional[i],
    }));
    printResults(label, own, bossResults, {
      ...(await boss.footprint()),
      installMs: boss.installed.ms,
      errors: boss.errors,
    });
  } finally {
    await close();
  }
};

const runStarted = performance.now();
await runOn('PGlite (in-process)', undefined);
let scratch = null;
try {
  scratch = await createScratchDatabase(ADMIN_URL, 'bench_job_queue');
} catch (error) {
  console.log(`\nPostgreSQL at ${ADMIN_URL} is not reachable (${error.message}): skipped.`);
}
if (scratch) {
  try {
    await runOn('PostgreSQL', scratch.url);
  } finally {
    await scratch.drop();
  }
}
console.log(`\nwhole run: ${fmt((performance.now() - runStarted) / 1000, 0)} s`);
process.exit(0);
