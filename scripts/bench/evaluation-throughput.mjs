#!/usr/bin/env node
/**
 * Evaluation run throughput: how close a run comes to the ideal time of its model calls.
 *
 * A local OpenAI-compatible stub answers every call after L = 200 ms (agent, rewording and judge,
 * told apart by the system prompt). The built server runs with EVAL_CONCURRENCY = C = 16 and the
 * demo agency, whose account's OpenAI-compatible provider points at the stub; a chat-completion
 * run is started through the API as the browser would and followed on its event stream.
 *
 * ideal = max(N x L / C, longest chain of dependent calls x L)
 * Figures per run: N, ideal, measured, efficiency (ideal / measured), fixed overhead (start to
 * first model call + last model answer to the run's completed event), server RSS before and peak.
 * Every question carries one check of each deterministic kind (contains, regex, JSON shape,
 * latency, cost, tool, refusal, similarity) beside the judge; BENCH_NO_CHECKS=1 leaves them out
 * (an A/B of what the checks cost).
 * Each size runs twice: without adaptive attacks, and with them on (the three strategies against
 * ten library goals, five turns each: attacker, agent and judge calls in chains of up to fifteen),
 * where the same number of calls is split between questions and attacks. BENCH_ADAPTIVE=off
 * runs only the first.
 * Targets: efficiency >= 0.9 at N = 1000 with adaptive attacks off and on, fixed overhead < 1 s,
 * memory flat from N = 1000 to 10 000.
 * BENCH_SIZES=1000,10000 (default) picks the runs; BENCH_PORT the server port. The server uses
 * the embedded PGlite database; BENCH_DATABASE_URL=postgres://... runs it on PostgreSQL instead (in
 * a throwaway database created and dropped here), as deployed at scale.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS, questionsFor as questionsForChecks, runPayload, startEvaluationStub } from './lib/evaluation.mjs';
import { SERVER_ENV, SERVER_NODE_ARGS } from './widget-support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LATENCY_MS = 200;
const CONCURRENCY = 16;
const PORT = Number(process.env.BENCH_PORT ?? 3204);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const ADMIN = 'admin@demo.switchboard.local';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const stub = await startEvaluationStub({ latencyMs: LATENCY_MS });
const { stats } = stub;
const stubUrl = stub.url;

const agent = new http.Agent({ keepAlive: true });
const call = (url, { method = 'POST', headers = {}, body } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      { method, agent, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-eval-'));
let databaseUrl;
let dropDatabase = async () => {};
if (process.env.BENCH_DATABASE_URL) {
  const { createScratchDatabase } = await import('./lib/scratch-database.mjs');
  const scratch = await createScratchDatabase(process.env.BENCH_DATABASE_URL, 'sb_bench_eval');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
}
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const server = spawn(process.execPath, [...profile, ...SERVER_NODE_ARGS, path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    ...SERVER_ENV,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    DIRECT_LOGIN_ALLOWLIST: ADMIN,
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
    FREE_PLAN_CREDITS: '100000000',
    EVAL_CONCURRENCY: String(CONCURRENCY),
    BODY_LIMIT_BYTES: String(8 * 1024 * 1024),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${PORT}`;
const rssMb = () => {
  try {
    const line = readFileSync(`/proc/${server.pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

const questionsFor = (calls) => questionsForChecks(calls, { checks: process.env.BENCH_NO_CHECKS ? null : CHECKS });

const waitForCompletion = (runId, cookie) =>
  new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/api/evaluation/runs/${runId}/events`,
      { headers: { cookie, accept: 'text/event-stream' } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf('\n\n');
            if (!frame.startsWith('data: ')) continue;
            const event = JSON.parse(frame.slice(6));
            if (['completed', 'failed', 'cancelled'].includes(event.run.status)) {
              req.destroy();
              resolve({ at: performance.now(), run: event.run });
            }
          }
        });
      },
    );
    req.on('error', reject);
  });

try {
  for (let i = 0; ; i += 1) {
    try {
      if ((await call(`${base}/api/health`, { method: 'GET' })).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (i > 1200) throw new Error('The server did not start'); // 2 min: a shared machine can be slow to start it
    await sleep(100);
  }
  const login = await call(`${base}/api/direct-login`, { body: { email: ADMIN } });
  const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
  const accounts = JSON.parse((await call(`${base}/api/accounts`, { method: 'GET', headers: { cookie } })).text);
  const sub = accounts.accounts[0].subaccounts[0].id;
  const saved = await call(`${base}/api/connect/${sub}/providers/compatible`, {
    method: 'PUT',
    headers: { cookie },
    body: { baseUrl: stubUrl },
  });
  if (saved.status !== 200) throw new Error(`Saving the stub provider failed: ${saved.text}`);

  /** Adaptive attacks at their default budget: up to 5 turns of attacker, agent and judge, one after another. */
  const ADAPTIVE = {
    strategies: ['crescendo', 'iterative', 'goal-driven'],
    categories: [
      'prompt-extraction',
      'instruction-override',
      'jailbreak-roleplay',
      'off-topic',
      'crescendo',
      'persona-switching',
      'base64',
      'leetspeak',
      'authority-impersonation',
      'toxicity',
    ],
    maxTurns: 5,
    maxCalls: 20,
    maxBacktracks: 3,
  };
  /** Calls of the adaptive attacks (each turn: attacker, agent, judge) and their longest chain. */
  const ADAPTIVE_CALLS = ADAPTIVE.strategies.length * ADAPTIVE.categories.length * ADAPTIVE.maxTurns * 3;
  const ADAPTIVE_CHAIN = ADAPTIVE.maxTurns * 3;

  const runOnce = async (size, adaptive = false) => {
    const questions = questionsFor(adaptive ? Math.max(100, size - ADAPTIVE_CALLS) : size);
    if (adaptive) questions.chain = Math.max(questions.chain, ADAPTIVE_CHAIN);
    const payload = runPayload({
      evaluationId: `bench-${size}-${adaptive ? 'adaptive-' : ''}${Date.now()}`,
      name: `Bench ${size}${adaptive ? ' adaptive' : ''}`,
      model: 'compatible:stub-model',
      questions,
      adaptiveAttacks: adaptive ? ADAPTIVE : undefined,
    });
    Object.assign(stats, { calls: 0, first: 0, last: 0, inFlight: 0, maxInFlight: 0 });
    const rssBefore = rssMb();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb());
    }, 250);
    const t0 = performance.now();
    const started = await call(`${base}/api/evaluation/run/evaluationdata`, {
      headers: { cookie, 'x-subaccount-id': sub },
      body: payload,
    });
    if (started.status !== 202) throw new Error(`Start failed: ${started.text.slice(0, 300)}`);
    const { runId } = JSON.parse(started.text);
    const done = await waitForCompletion(runId, cookie);
    clearInterval(sampler);
    const measured = (done.at - t0) / 1000;
    const n = stats.calls;
    const ideal = Math.max((n * LATENCY_MS) / CONCURRENCY, questions.chain * LATENCY_MS) / 1000;
    return {
      adaptive: adaptive ? 'on' : 'off',
      N: n,
      conversations: done.run.progress.done,
      status: done.run.status,
      'ideal s': ideal.toFixed(2),
      'measured s': measured.toFixed(2),
      efficiency: (ideal / measured).toFixed(3),
      'fixed overhead s': ((stats.first - t0 + (done.at - stats.last)) / 1000).toFixed(3),
      'max in flight': stats.maxInFlight,
      'RSS before MB': rssBefore.toFixed(0),
      'RSS peak MB': rssPeak.toFixed(0),
    };
  };

  await runOnce(100); // warm-up
  const rows = [];
  for (const size of SIZES) {
    rows.push(await runOnce(size));
    if (process.env.BENCH_ADAPTIVE !== 'off') rows.push(await runOnce(size, true));
  }
  console.log(
    `\nEvaluation throughput (L = ${LATENCY_MS} ms, C = ${CONCURRENCY}, database ${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  console.table(rows);
  const plain = rows.filter((row) => row.adaptive === 'off');
  const growth = plain.length > 1 ? Number(plain.at(-1)['RSS peak MB']) - Number(plain[0]['RSS peak MB']) : 0;
  for (const mode of ['off', 'on']) {
    const first = rows.find((row) => row.adaptive === mode && row.N >= 900);
    if (!first) continue;
    console.log(
      `Target efficiency >= 0.9 at N = 1000, adaptive attacks ${mode}: ${first.efficiency} ${Number(first.efficiency) >= 0.9 ? 'OK' : 'MISSED'}`,
    );
  }
  console.log(
    `Target fixed overhead < 1 s: ${rows.map((row) => row['fixed overhead s']).join(', ')} ${rows.every((row) => Number(row['fixed overhead s']) < 1) ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `Memory: peak RSS ${rows.map((row) => `${row['RSS peak MB']} MB at N = ${row.N}${row.adaptive === 'on' ? ' (adaptive on)' : ''}`).join(', ')} (growth without attacks ${growth.toFixed(0)} MB)`,
  );
} finally {
  server.kill('SIGTERM');
  stub.close();
  agent.destroy();
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase().catch(() => undefined);
}
