#!/usr/bin/env node
/**
 * Chat latency benchmark: the time the server adds to a chat turn on top of the model.
 *
 * A local OpenAI-compatible stub answers every call after a fixed 50 ms. The built server runs
 * with the demo agency, its agent switched to the stub (an OpenAI key pointing at the stub), and
 * is called through POST /v1/chat/completions with a platform API key, as a customer would.
 * Figures: per-turn latency through the server vs calling the stub directly (p50, p99) at 1 and
 * 100 concurrent conversations, and time to first streamed token vs the stub's.
 * Targets: p99 added <= 15 ms at 100 concurrent; TTFT within 5 ms of the stub.
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
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
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
    if (i > 200) throw new Error('The server did not start');
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

  /** `conversations` run at once, each `TURNS` turns in a row on its own thread. */
  const run = async (conversations, direct) => {
    const times = [];
    await Promise.all(
      Array.from({ length: conversations }, async (_, c) => {
        let thread = null;
        for (let turn = 0; turn < TURNS; turn += 1) {
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
    return times;
  };

  await run(5, false); // warm-up
  await run(5, true);
  const rows = [];
  for (const conversations of [1, 100]) {
    const direct = await run(conversations, true);
    const through = await run(conversations, false);
    rows.push({
      conversations,
      directP50: percentile(direct, 50),
      directP99: percentile(direct, 99),
      serverP50: percentile(through, 50),
      serverP99: percentile(through, 99),
    });
  }

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
      `  ${String(row.conversations).padStart(3)} concurrent: stub p50 ${f(row.directP50)}, p99 ${f(row.directP99)} | through server p50 ${f(row.serverP50)}, p99 ${f(row.serverP99)} | added p50 ${f(row.serverP50 - row.directP50)}, p99 ${f(row.serverP99 - row.directP99)}`,
    );
  }
  const ttftAdded = percentile(ttftServer, 50) - percentile(ttftDirect, 50);
  console.log(
    `Time to first streamed token: stub p50 ${f(percentile(ttftDirect, 50))}, through server p50 ${f(percentile(ttftServer, 50))} (added ${f(ttftAdded)})`,
  );
  const at100 = rows.find((row) => row.conversations === 100);
  const p99Added = at100.serverP99 - at100.directP99;
  console.log(`Target p99 added <= 15 ms at 100 concurrent: ${p99Added <= 15 ? 'met' : 'NOT met'} (${f(p99Added)})`);
  console.log(`Target TTFT within 5 ms of the stub: ${ttftAdded <= 5 ? 'met' : 'NOT met'} (${f(ttftAdded)})`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  cleanup();
}
