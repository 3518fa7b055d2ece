#!/usr/bin/env node
/**
 * Widget public chat throughput: POST /api/widget/{widgetId}/chat as visitors' browsers call it.
 *
 * The built server runs with the demo agency; the Sunrise Solar agent answers through a local
 * OpenAI-compatible stub model (no delay). A website-widget connection is created and deployed with
 * a daily limit high enough for the run. BENCH_CONCURRENCY clients send for BENCH_SECONDS, each
 * message from its own visitor (contact identifier), so every request stores a thread, the
 * visitor's message and the reply. Target: >= 500 requests/s with zero errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  call,
  freePort,
  percentile,
  setupWidget,
  startBenchServer,
  startPostgres,
  startRedis,
  startStubModel,
} from './widget-support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TARGET_RPS = 500;

const stub = await startStubModel();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-widget-bench-'));
// The at-scale setup when the machine has it: PostgreSQL, Redis (limits, event bus) and app
// processes behind one port, one per core but one core left to PostgreSQL, Redis and this load
// generator (on two cores: one app process); the embedded setup (PGlite, one process) otherwise.
const postgres = await startPostgres(await freePort());
const redis = postgres ? await startRedis(await freePort()) : null;
const processes = Number(process.env.BENCH_PROCESSES ?? (postgres ? Math.max(1, os.availableParallelism() - 1) : 1));
let server = null;
try {
  server = await startBenchServer({
    port: await freePort(),
    dataDir,
    stubUrl: stub.url,
    processes,
    env: { ...(postgres ? { DATABASE_URL: postgres.url } : {}), ...(redis ? { REDIS_URL: redis.url } : {}) },
  });
  const { widgetId } = await setupWidget(server.base, { dailyLimit: 1_000_000 });
  const url = `${server.base}/api/widget/${widgetId}/chat`;
  const send = (n) =>
    call(url, {
      body: { message: `Visitor ${n}: do you install solar panels?`, contactIdentifier: `preview_bench_${n}` },
    });

  // Warm-up.
  await Promise.all(Array.from({ length: 50 }, (_, i) => send(`w${i}`)));

  const times = [];
  const failures = new Map();
  let sent = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const n = sent++;
        try {
          const result = await send(n);
          if (result.status !== 200 || !JSON.parse(result.text).message) {
            failures.set(result.status, (failures.get(result.status) ?? 0) + 1);
          } else times.push(result.ms);
        } catch (error) {
          failures.set(error.code ?? 'network', (failures.get(error.code ?? 'network') ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  const rps = sent / elapsed;
  console.log(`Widget chat: ${sent} requests in ${elapsed.toFixed(1)} s at concurrency ${CONCURRENCY}`);
  console.log(`  throughput  ${rps.toFixed(0)} requests/s   (target >= ${TARGET_RPS})`);
  console.log(
    `  errors      ${errors}${errors ? ` ${JSON.stringify(Object.fromEntries(failures))}` : ''}   (target 0)`,
  );
  console.log(`  latency     p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
  console.log(
    `  setup       ${server.driver}${redis ? ' + redis' : ''}, ${processes} app process${processes > 1 ? 'es' : ''}`,
  );
  const ok = rps >= TARGET_RPS && errors === 0;
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
} finally {
  server?.stop();
  stub.close();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  redis?.stop();
  postgres?.stop();
  setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 500);
}
