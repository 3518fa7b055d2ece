#!/usr/bin/env node
/**
 * CPU per turn of one conversation, for comparing two builds under the same load: run it twice at
 * once, each with BENCH_SERVER_ENTRY naming a build (apps/server/dist/main.js by default). It starts
 * the built server on a fresh PGlite (or DATABASE_URL), points the demo agent at a stub model that
 * answers after 50 ms, sends WARMUP (20) turns, rests REST_MS (12,000) ms, then sends TURNS (400)
 * turns of one conversation (or shared by CONVERSATIONS at once, back to back) through POST
 * /v1/chat/completions and prints the server's CPU per turn, per thread. Not a
 * benchmark of its own (`npm run bench` does not run it): node scripts/bench/lib/one-conversation-cpu.mjs
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, freePort, signInWithStubAgent, sleep, startBenchServer, startStubModel } from '../widget-support.js';
import { processFigures } from './process-figures.mjs';

const TURNS = Number(process.env.TURNS ?? 400);
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 1);
const threads = (pid) =>
  Object.fromEntries(
    readdirSync(`/proc/${pid}/task`).map((task) => {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [task, Number(fields[11]) + Number(fields[12])];
    }),
  );

const stub = await startStubModel({
  latencyMs: 50,
  text: 'Thanks for asking, here is a short answer from the stub model.',
});
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-one-conversation-'));
const server = await startBenchServer({
  port: await freePort(),
  dataDir,
  stubUrl: stub.url,
  env: { DATABASE_URL: process.env.DATABASE_URL ?? '', REDIS_URL: '' },
});
try {
  const { base } = server;
  const { cookie, sub, target } = await signInWithStubAgent(base);
  const created = await call(`${base}/api/api-keys`, {
    headers: { cookie, 'x-subaccount-id': sub },
    body: { name: 'cpu' },
  });
  const authorization = `Bearer ${JSON.parse(created.text).key}`;
  const conversation = async (turns) => {
    let thread = null;
    for (let turn = 0; turn < turns; turn += 1) {
      const answer = await call(`${base}/v1/chat/completions`, {
        headers: { authorization, ...(thread ? { 'x-thread-id': thread } : {}) },
        body: {
          model: target.id,
          stream: false,
          messages: [{ role: 'user', content: `Question ${turn}: your opening hours?` }],
        },
      });
      if (answer.status !== 200) throw new Error(`Turn failed (${answer.status}): ${answer.text.slice(0, 200)}`);
      thread = answer.headers['x-thread-id'] ?? thread;
    }
  };
  await conversation(Number(process.env.WARMUP ?? 20));
  await sleep(Number(process.env.REST_MS ?? 12_000));
  const wakes = () =>
    Number(readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/^voluntary_ctxt_switches:\s+(\d+)/m)?.[1]);
  const before = threads(server.pid);
  const wakesBefore = wakes();
  const turnsEach = Math.ceil(TURNS / CONVERSATIONS);
  const sent = turnsEach * CONVERSATIONS;
  await Promise.all(Array.from({ length: CONVERSATIONS }, () => conversation(turnsEach)));
  const after = threads(server.pid);
  const wakesPerTurn = ((wakes() - wakesBefore) / sent).toFixed(1);
  const perTurn = (ticks) => ((ticks * 10) / sent).toFixed(2);
  const total = Object.keys(after).reduce((sum, task) => sum + after[task] - (before[task] ?? 0), 0);
  const busy = Object.keys(after)
    .map((task) => [task, after[task] - (before[task] ?? 0)])
    .filter(([, ticks]) => ticks > 0)
    .map(([task, ticks]) => `${task === String(server.pid) ? 'main' : task} ${perTurn(ticks)}`);
  console.log(
    `CPU per turn ${perTurn(total)} ms (${sent} turns; by thread, ms: ${busy.join(', ')}); the main thread woke ${wakesPerTurn} times a turn; RSS ${Math.round(processFigures(server.pid).rss / 2 ** 20)} MB`,
  );
} finally {
  await server.stop();
  stub.close();
  rmSync(dataDir, { recursive: true, force: true });
}
