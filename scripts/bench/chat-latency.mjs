#!/usr/bin/env node
/**
 * Chat latency benchmark: the time the server adds to a chat turn on top of the model.
 *
 * A local OpenAI-compatible stub answers every call after a fixed 50 ms. The built server runs
 * with the demo agency, its agent switched to the stub (an OpenAI key pointing at the stub), and
 * is called through POST /v1/chat/completions with a platform API key, as a customer would.
 *
 * Figures, each through the server and against the stub called directly with the same schedule:
 * - 1 conversation, turns back to back.
 * - 100 concurrent conversations, paced like people chatting: each starts at a random moment of
 *   the first second and, after every reply, pauses 0.5 to 1.5 s (reading the reply, typing the
 *   next message) before its next turn. The schedule comes from a fixed seed, so both runs get it.
 * - 100 concurrent conversations with no pause at all (every conversation sends its next turn the
 *   moment its reply ends), which is the server at saturation: the figure shows throughput and how
 *   latency grows when turns arrive faster than the machine serves them.
 * - time to first streamed token vs the stub's.
 * Targets: p99 added <= 15 ms at 100 concurrent conversations; TTFT within 5 ms of the stub.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, sleep, startStubModel } from './widget-support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LATENCY_MS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 3201);
const TURNS = Number(process.env.BENCH_TURNS ?? 10);
/** A person's pause between a reply and their next message, and the spread of the conversations' starts. */
const PAUSE_MS = [500, 1500];
const START_SPREAD_MS = 1000;
const ADMIN = 'admin@demo.switchboard.local';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One HTTP call; resolves with the total time and the time to the first body byte carrying text. */
const call = (url, { method = 'POST', headers = {}, body, firstToken = false } = {}) =>
  new Promise((resolve, reject) => {
    const start = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        let ttft = null;
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
          if (firstToken && ttft === null && /"content":"[^"]/.test(text)) ttft = performance.now() - start;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text, ms: performance.now() - start, ttft }),
        );
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });

const f = (ms) => `${ms.toFixed(1)} ms`;

const stub = await startStubModel({
  latencyMs: LATENCY_MS,
  text: 'Thanks for asking, here is a short answer from the stub model.',
});
const stubUrl = stub.url;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const server = spawn(process.execPath, [...profile, path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    DIRECT_LOGIN_ALLOWLIST: ADMIN,
    OPENAI_BASE_URL: stubUrl,
    FREE_PLAN_CREDITS: '100000000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${PORT}`;

const cleanup = () => {
  server.kill('SIGTERM');
  stub.close();
  agent.destroy();
  setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 500);
};

try {
  for (let i = 0; ; i += 1) {
    try {
      const health = await call(`${base}/api/health`, { method: 'GET' });
      if (health.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (i > 900) throw new Error('The server did not start');
    await sleep(100);
  }
  const login = await call(`${base}/api/direct-login`, { body: { email: ADMIN } });
  const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
  const agents = JSON.parse((await call(`${base}/api/agents`, { method: 'GET', headers: { cookie } })).text).agents;
  const target = agents[0];
  const sub = target.subaccountId;
  const saved = await call(`${base}/api/connect/${sub}/providers/openai`, {
    method: 'PUT',
    headers: { cookie },
    body: { apiKey: 'sk-bench-key' },
  });
  if (saved.status !== 200) throw new Error(`Saving the stub key failed: ${saved.text}`);
  await call(`${base}/api/agents/${target.id}`, {
    method: 'PATCH',
    headers: { cookie },
    body: { provider: 'openai', model: 'stub-small' },
  });
  const key = JSON.parse(
    (await call(`${base}/api/api-keys`, { headers: { cookie, 'x-subaccount-id': sub }, body: { name: 'bench' } })).text,
  ).key;
  const auth = { authorization: `Bearer ${key}` };
  const turnBody = (stream, content) => ({ model: target.id, stream, messages: [{ role: 'user', content }] });
  const directBody = (stream, content) => ({ model: 'stub-small', stream, messages: [{ role: 'user', content }] });

  /** A seeded random source (mulberry32), so the direct and the server runs get the same schedule. */
  const seeded = (seed) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  /**
   * `conversations` at once, each `TURNS` turns on its own thread. Paced: a random start within
   * START_SPREAD_MS and a PAUSE_MS pause after each reply; unpaced: turns back to back.
   */
  const run = async (conversations, direct, paced) => {
    const times = [];
    const random = seeded(42);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: conversations }, async (_, c) => {
        const pauses = Array.from({ length: TURNS }, () => PAUSE_MS[0] + random() * (PAUSE_MS[1] - PAUSE_MS[0]));
        if (paced) await sleep(random() * START_SPREAD_MS);
        let thread = null;
        for (let turn = 0; turn < TURNS; turn += 1) {
          if (paced && turn > 0) await sleep(pauses[turn]);
          const content = `Conversation ${c}, question ${turn}: what are your opening hours?`;
          const result = direct
            ? await call(`${stubUrl}/chat/completions`, { body: directBody(false, content) })
            : await call(`${base}/v1/chat/completions`, {
                headers: { ...auth, ...(thread ? { 'x-thread-id': thread } : {}) },
                body: turnBody(false, content),
              });
          if (result.status !== 200) throw new Error(`Turn failed (${result.status}): ${result.text.slice(0, 200)}`);
          thread = result.headers['x-thread-id'] ?? thread;
          times.push(result.ms);
        }
      }),
    );
    return { times, seconds: (performance.now() - started) / 1000 };
  };

  const measure = async (label, conversations, paced) => {
    const direct = await run(conversations, true, paced);
    const through = await run(conversations, false, paced);
    return {
      label,
      directP50: percentile(direct.times, 50),
      directP99: percentile(direct.times, 99),
      serverP50: percentile(through.times, 50),
      serverP99: percentile(through.times, 99),
      turnsPerSecond: through.times.length / through.seconds,
    };
  };

  await run(5, false, false); // warm-up
  await run(5, true, false);
  const rows = [
    await measure('  1 conversation          ', 1, false),
    await measure('100 conversations, paced  ', 100, true),
    await measure('100 conversations, no pause', 100, false),
  ];

  const ttft = async (direct) => {
    const values = [];
    for (let i = 0; i < 30; i += 1) {
      const result = direct
        ? await call(`${stubUrl}/chat/completions`, { body: directBody(true, `hello ${i}`), firstToken: true })
        : await call(`${base}/v1/chat/completions`, {
            headers: auth,
            body: turnBody(true, `hello ${i}`),
            firstToken: true,
          });
      values.push(result.ttft ?? result.ms);
    }
    return values;
  };
  await ttft(false);
  const ttftDirect = await ttft(true);
  const ttftServer = await ttft(false);

  console.log(`Chat turn latency (stub answers after ${LATENCY_MS} ms; ${TURNS} turns per conversation)`);
  for (const row of rows) {
    console.log(
      `  ${row.label}: stub p50 ${f(row.directP50)}, p99 ${f(row.directP99)} | through server p50 ${f(row.serverP50)}, p99 ${f(row.serverP99)} | added p50 ${f(row.serverP50 - row.directP50)}, p99 ${f(row.serverP99 - row.directP99)} | ${row.turnsPerSecond.toFixed(0)} turns/s`,
    );
  }
  const ttftAdded = percentile(ttftServer, 50) - percentile(ttftDirect, 50);
  console.log(
    `Time to first streamed token: stub p50 ${f(percentile(ttftDirect, 50))}, through server p50 ${f(percentile(ttftServer, 50))} (added ${f(ttftAdded)})`,
  );
  const p99Added = rows[1].serverP99 - rows[1].directP99;
  console.log(
    `Target p99 added <= 15 ms at 100 concurrent conversations: ${p99Added <= 15 ? 'met' : 'NOT met'} (${f(p99Added)})`,
  );
  console.log(`Target TTFT within 5 ms of the stub: ${ttftAdded <= 5 ? 'met' : 'NOT met'} (${f(ttftAdded)})`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  cleanup();
}
