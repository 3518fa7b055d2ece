#!/usr/bin/env node
/**
 * Capacity benchmark: how many turns a second one server carries for an agency of a thousand
 * clients before visitors feel it.
 *
 * The demo agency gets --subaccounts sub-accounts (1,000), each with an agent on a local stub
 * model (OpenAI-compatible, answers after a fixed 50 ms) and a deployed website widget. One is
 * made through the API; the rest are copies of its rows written in SQL in one transaction
 * (lib/clone-subaccounts.mjs), so every widget is a real deployed widget. Visitors call
 * POST /api/widget/{widgetId}/chat as a visitor's browser does (with the host site's Origin).
 * Turns arrive at random (a Poisson process) at a rising rate: 5, 10, 20, 40, 60, 80, 120, 160,
 * 200, 250, 300, 400, ... a second up to --max-rate, each held --step-seconds (20). A turn is the
 * next message of an open conversation three times in four (one whose reply came at least 1 s
 * ago; at most 8 turns each), else a new visitor on a random sub-account's widget. The run stops
 * at the first step whose paced p99 added latency is over 50 ms or that has any error; the
 * capacity is the last step before it.
 *
 * Deployments (--db): the embedded database (PGlite) in one process, and PostgreSQL (a scratch
 * database on 127.0.0.1:5432, dropped after) with Redis (127.0.0.1:6379, keys under a prefix of
 * the run's own, deleted after) in two processes behind HAProxy (lib/cluster.mjs, as the chaos
 * benchmark). BENCH_DATABASE_URL and BENCH_REDIS_URL point elsewhere.
 *
 * Figures per step: turns offered and answered a second; added latency p50 and p99 (the time a
 * visitor waits minus the model's, as the chat latency benchmark reads it: the server's percentile
 * minus the stub's latency called directly, here its median, read during the same step by calls
 * beside the visitors' so the machine's load of the moment is in both; the stub's own tail counts
 * against the server); errors; server CPU per turn (every app process, all threads, from /proc; on
 * PostgreSQL also its backends for the scratch database; HAProxy and Redis not counted); resident
 * memory of the app processes after the step; the machine's load average; and beside them the
 * reference relay's CPU per turn (reference-relay.js, plain Node relaying to the stub) at the same
 * rate, held --relay-seconds (10) right after the step: how fast the machine was at that moment.
 *
 * Every visitor of the benchmark calls from 127.0.0.1, so the per-address limits are raised as
 * e2e/serve.mjs raises them (RATE_LIMITS below) and each widget's daily limit is 1,000,000; the
 * per-visitor limit stays at its default (no visitor here sends more than 8 messages). The output
 * says so.
 *
 * npm run bench -- capacity [--subaccounts 1000] [--step-seconds 20] [--max-rate 1000]
 *   [--db pglite|postgres|both] [--relay-seconds 10]
 *   (--subaccounts 50 --step-seconds 3 --max-rate 20 --db pglite is a quick check).
 * Everything it starts is stopped, and the database, keys and folders removed, also on failure or
 * Ctrl+C.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, cleanUpOnExit, onCleanup } from './lib/cleanup.mjs';
import { cloneSubaccounts, pgliteTransaction, pgTransaction } from './lib/clone-subaccounts.mjs';
import { startCluster, startPostgresAndRedis } from './lib/cluster.mjs';
import { createFleet } from './lib/fleet.mjs';
import { ensureHaproxy } from './lib/haproxy.mjs';
import { processFigures } from './lib/process-figures.mjs';
import { startReferenceRelay } from './reference-relay.js';
import {
  call,
  freePort,
  percentile,
  SERVER_ENTRY,
  signInWithStubAgent,
  sleep,
  startStubModel,
} from './widget-support.js';

const STEPS = [5, 10, 20, 40, 60, 80, 120, 160, 200, 250, 300, 400, 500, 600, 800, 1000, 1500, 2000];
const MODEL_MS = 50;
const TARGET_P99_ADDED_MS = 50;
const CONTINUE_SHARE = 0.75;
const TURNS_PER_CONVERSATION = 8;
const READ_PAUSE_MS = 1000;
const PROBE_SHARE = 0.25;
const PROBE_MIN_RATE = 5;
const OPEN_CONVERSATIONS = 5000;
const APP_PROCESSES_ON_POSTGRES = 2;
const DAILY_LIMIT = 1_000_000;
const STUB_TEXT = 'Thanks for asking, here is a short answer from the stub model.';
const SITE = 'https://www.client-site.example';
/** Every visitor calls from 127.0.0.1: the per-address limits out of the way, as e2e/serve.mjs sets them. */
const RATE_LIMITS = {
  PUBLIC_ADDRESS_RATE_LIMIT_PER_MINUTE: '10000000',
  WIDGET_IP_BURST_LIMIT: '10000000',
  STREAMS_PER_ADDRESS: '100000',
};

const options = (() => {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        subaccounts: { type: 'string', default: '1000' },
        'step-seconds': { type: 'string', default: '20' },
        'max-rate': { type: 'string', default: '1000' },
        'relay-seconds': { type: 'string', default: '10' },
        db: { type: 'string', default: 'both' },
      },
    }));
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const number = (name, min, max) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min || value > max) {
      console.error(`--${name} must be a number from ${min} to ${max}`);
      process.exit(2);
    }
    return value;
  };
  if (!['pglite', 'postgres', 'both'].includes(values.db)) {
    console.error('--db must be pglite, postgres or both');
    process.exit(2);
  }
  return {
    subaccounts: Math.round(number('subaccounts', 1, 100_000)),
    stepSeconds: number('step-seconds', 1, 3600),
    maxRate: number('max-rate', STEPS[0], 100_000),
    relaySeconds: number('relay-seconds', 1, 3600),
    db: values.db,
  };
})();

const fmt = (n) => n.toLocaleString('en-US');
const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const nameOf = (i) => `Client ${String(i).padStart(4, '0')}`;
const started = performance.now();
const note = (text) => console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(7)} s  ${text}`);
const visitorAgent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

// ---- The agency ------------------------------------------------------------------------------

const must = async (label, url, request, expected = [200, 201]) => {
  const answer = await call(url, { timeoutMs: 60_000, ...request });
  if (!expected.includes(answer.status))
    throw new Error(`${label} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.text ? JSON.parse(answer.text) : {};
};

/**
 * Through the API: the stub model's key for the demo agency, a sub-account with an agent on the
 * stub and a website widget, deployed with a daily limit out of the way.
 */
const createTemplate = async (base) => {
  const { cookie } = await signInWithStubAgent(base);
  const headers = { cookie };
  const { accounts } = await must('Reading the accounts', `${base}/api/accounts`, { headers });
  const name = nameOf(1);
  const sub = await must('Creating a sub-account', `${base}/api/subaccounts`, {
    headers,
    body: { accountId: accounts[0].id, name },
  });
  const agent = await must('Creating the agent', `${base}/api/agents`, {
    headers: { ...headers, 'x-subaccount-id': sub.id },
    body: {
      name: 'Website assistant',
      provider: 'openai',
      model: 'stub-small',
      systemPrompt: 'You answer visitors of the website in two sentences.',
    },
  });
  const widget = await must('Creating the widget', `${base}/api/connections`, {
    headers,
    body: { subaccountId: sub.id, buildId: agent.id, type: 'website-widget' },
  });
  await must('Saving the widget', `${base}/api/connections/${widget.connectionId}`, {
    method: 'PUT',
    headers,
    body: { settings: { dailyLimit: DAILY_LIMIT } },
  });
  await must('Deploying the widget', `${base}/api/connections/${widget.connectionId}/deploy`, {
    method: 'POST',
    headers,
  });
  return {
    subaccountId: sub.id,
    name,
    agentId: agent.id,
    connectionId: widget.connectionId,
    widgetId: widget.widgetId,
  };
};

/** The template and its copies: `subaccounts` widgets in all. */
const cloneTemplate = async (transaction, template) => {
  const began = performance.now();
  const copies = await cloneSubaccounts(transaction, template, options.subaccounts - 1, (i) => nameOf(i + 1));
  note(
    `${fmt(options.subaccounts)} sub-accounts with an agent and a deployed widget (copies written in ${((performance.now() - began) / 1000).toFixed(1)} s)`,
  );
  return [template.widgetId, ...copies];
};

// ---- Visitors --------------------------------------------------------------------------------

/**
 * The visitors: each turn continues an open conversation (CONTINUE_SHARE of them, when one is
 * waiting) or starts one on a random widget.
 */
const createVisitors = (widgets) => {
  const waiting = [];
  let visitors = 0;
  return {
    next: () => {
      const now = performance.now();
      const ready = waiting.findIndex((conversation) => conversation.readyAt <= now);
      if (ready >= 0 && Math.random() < CONTINUE_SHARE) return waiting.splice(ready, 1)[0];
      visitors += 1;
      return { widgetId: pick(widgets), contact: `capacity-visitor-${visitors}`, threadId: null, turns: 0 };
    },
    answered: (conversation, threadId) => {
      conversation.turns += 1;
      conversation.threadId = threadId;
      conversation.readyAt = performance.now() + READ_PAUSE_MS;
      if (conversation.turns < TURNS_PER_CONVERSATION) waiting.push(conversation);
      if (waiting.length > OPEN_CONVERSATIONS) waiting.shift();
    },
  };
};

const QUESTIONS = [
  'Do you have an appointment free this week?',
  'How much does it cost?',
  'What are your opening hours?',
  'Can I talk to someone about my order?',
];

/** One visitor's turn through the widget; answers how long it took and whether it was a real answer. */
const widgetTurn = (base, visitors) => async () => {
  const conversation = visitors.next();
  const body = {
    message: `${pick(QUESTIONS)} (turn ${conversation.turns + 1})`,
    contactIdentifier: conversation.contact,
    ...(conversation.threadId ? { threadId: conversation.threadId } : {}),
  };
  const answer = await call(`${base}/api/widget/${conversation.widgetId}/chat`, {
    headers: { origin: SITE },
    body,
    timeoutMs: 30_000,
    agent: visitorAgent,
  });
  let reply = null;
  try {
    reply = JSON.parse(answer.text);
  } catch {
    // Not JSON: reported below.
  }
  if (answer.status !== 200 || reply?.message !== STUB_TEXT)
    return { ms: answer.ms, error: `${answer.status} ${answer.text.slice(0, 120)}` };
  visitors.answered(conversation, reply.threadId);
  return { ms: answer.ms };
};

/** One turn straight to `url` (the stub model or the reference relay), OpenAI's chat completions. */
const completionTurn = (url) => async () => {
  const answer = await call(url, {
    body: { model: 'stub-small', messages: [{ role: 'user', content: pick(QUESTIONS) }] },
    timeoutMs: 30_000,
    agent: visitorAgent,
  });
  return answer.status === 200 ? { ms: answer.ms } : { ms: answer.ms, error: `${answer.status}` };
};

/** Sends turns at `rate` a second at random moments (a Poisson process) for `seconds`; answers every record. */
const schedule = async (rate, seconds, turn) => {
  const records = [];
  const pending = new Set();
  const begin = performance.now();
  const end = begin + seconds * 1000;
  let next = begin;
  while (next < end) {
    const now = performance.now();
    while (next <= now && next < end) {
      const request = turn()
        .catch((error) => ({ ms: 0, error: error.code ?? error.message }))
        .then((record) => {
          records.push(record);
          pending.delete(request);
        });
      pending.add(request);
      next += (-Math.log(1 - Math.random()) * 1000) / rate;
    }
    await sleep(Math.min(50, Math.max(0, next - performance.now())));
  }
  await Promise.all(pending);
  return records;
};

const figuresOfTurns = (records, seconds) => {
  const ok = records.filter((record) => !record.error).map((record) => record.ms);
  const errorKinds = {};
  for (const record of records.filter((r) => r.error)) errorKinds[record.error] = (errorKinds[record.error] ?? 0) + 1;
  return {
    sent: records.length,
    answered: ok.length,
    answeredPerSecond: ok.length / seconds,
    p50: percentile(ok, 50),
    p99: percentile(ok, 99),
    errors: records.length - ok.length,
    errorKinds,
  };
};

/**
 * Turns at `rate` a second for `seconds`, whatever the answers take, then waits for every answer.
 * `pids()` names the processes whose CPU counts. With `probe`, the stub model is called directly
 * at the same time (PROBE_SHARE of the rate, at least PROBE_MIN_RATE a second): its latency at
 * that moment, on the same machine and the same load generator, which `added` subtracts.
 */
const drive = async (rate, seconds, turn, { pids = () => [], probe } = {}) => {
  const cpu = () => pids().reduce((sum, pid) => sum + (safeFigures(pid)?.cpu ?? 0), 0);
  const cpuBefore = cpu();
  const [records, probed] = await Promise.all([
    schedule(rate, seconds, turn),
    probe ? schedule(Math.max(PROBE_MIN_RATE, rate * PROBE_SHARE), seconds, probe) : [],
  ]);
  const figures = figuresOfTurns(records, seconds);
  return {
    ...figures,
    cpuMsPerTurn: figures.answered ? ((cpu() - cpuBefore) * 1000) / figures.answered : Number.NaN,
    model: probe ? figuresOfTurns(probed, seconds) : null,
  };
};

/** A process's figures, or null when it has gone (a database backend that closed). */
const safeFigures = (pid) => {
  try {
    return processFigures(pid);
  } catch {
    return null;
  }
};

// ---- The steps -------------------------------------------------------------------------------

/**
 * Warms up, reads the stub's own latency, then runs the steps until one breaks the target.
 * `target` is { label, base, appPids(), databasePids() }.
 */
const climb = async (target, stub, relay, widgets) => {
  const visitors = createVisitors(widgets);
  const turn = widgetTurn(target.base, visitors);
  const sanity = await drive(5, 2, turn);
  if (sanity.errors) throw new Error(`The widgets do not answer: ${JSON.stringify(sanity.errorKinds)}`);
  await drive(20, 3, turn);
  const modelTurn = completionTurn(`${stub.url}/chat/completions`);
  const relayTurn = completionTurn(`${relay.base}/v1/chat/completions`);
  const rows = [];
  for (const rate of STEPS.filter((r) => r <= options.maxRate)) {
    const loadBefore = os.loadavg()[0];
    const databaseBefore = figuresOf(target.databasePids());
    const server = await drive(rate, options.stepSeconds, turn, { pids: target.appPids, probe: modelTurn });
    const databaseCpu = cpuSince(databaseBefore);
    const memory = target.appPids().map((pid) => safeFigures(pid) ?? { rss: 0, peak: 0 });
    const reference = await drive(rate, options.relaySeconds, relayTurn, { pids: () => [relay.pid] });
    const row = {
      rate,
      ...server,
      addedP50: server.p50 - server.model.p50,
      addedP99: server.p99 - server.model.p50,
      databaseMsPerTurn: databaseCpu === null ? null : (databaseCpu * 1000) / Math.max(1, server.answered),
      rss: memory.reduce((sum, figures) => sum + figures.rss, 0),
      peak: Math.max(...memory.map((figures) => figures.peak)),
      relayMsPerTurn: reference.cpuMsPerTurn,
      load: loadBefore,
    };
    row.passed = row.errors === 0 && row.addedP99 <= TARGET_P99_ADDED_MS;
    rows.push(row);
    note(
      `[${target.label}] ${fmt(rate)}/s: answered ${row.answeredPerSecond.toFixed(1)}/s, added p50 ${ms(row.addedP50)}, p99 ${ms(row.addedP99)}, errors ${row.errors}${
        row.errors
          ? ` (${Object.entries(row.errorKinds)
              .map(([kind, n]) => `${n} × ${kind}`)
              .join('; ')})`
          : ''
      }, CPU ${row.cpuMsPerTurn.toFixed(2)} ms/turn (relay ${row.relayMsPerTurn.toFixed(2)}), RSS ${mb(row.rss)}, load ${loadBefore.toFixed(1)}`,
    );
    if (!row.passed) break;
  }
  return { label: target.label, rows };
};

/** CPU seconds of each of `pids` now. */
const figuresOf = (pids) => (pids ? new Map(pids.map((pid) => [pid, safeFigures(pid)?.cpu])) : null);
/** CPU seconds used since `before` by the processes still there. */
const cpuSince = (before) => {
  if (!before) return null;
  let total = 0;
  for (const [pid, cpu] of before) {
    const now = safeFigures(pid)?.cpu;
    if (cpu !== undefined && now !== undefined) total += now - cpu;
  }
  return total;
};

// ---- The deployments -------------------------------------------------------------------------

const runOnPglite = async (stub, relay) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-capacity-'));
  onCleanup('remove the data folder', () => rmSync(dir, { recursive: true, force: true }));
  const fleet = createFleet({
    ports: [await freePort()],
    dir,
    stubUrl: stub.url,
    env: { DATABASE_URL: '', REDIS_URL: '', ...RATE_LIMITS },
  });
  onCleanup('stop the app process', fleet.stop, fleet.killNow);
  const [slot] = fleet.slots;
  await fleet.start(slot);
  const template = await createTemplate(slot.base);
  // The embedded database belongs to one process: the copies are written while the server is stopped.
  await fleet.terminate(slot, 30_000);
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(path.join(slot.dataDir, 'pglite'));
  let widgets;
  try {
    widgets = await cloneTemplate(pgliteTransaction(pglite), template);
  } finally {
    await pglite.close();
  }
  await fleet.start(slot);
  note(`PGlite: 1 process answers at ${slot.base}`);
  try {
    return await climb(
      { label: 'PGlite, 1 process', base: slot.base, appPids: () => [slot.child.pid], databasePids: () => null },
      stub,
      relay,
      widgets,
    );
  } finally {
    await fleet.stop();
  }
};

const runOnPostgres = async (stub, relay) => {
  if (!ensureHaproxy()) throw new Error('HAProxy is needed');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-capacity-'));
  onCleanup('remove the data folders', () => rmSync(dir, { recursive: true, force: true }));
  const infra = await startPostgresAndRedis('sb_capacity');
  let widgets;
  const cluster = await startCluster({
    infra,
    processes: APP_PROCESSES_ON_POSTGRES,
    dir,
    stubUrl: stub.url,
    env: RATE_LIMITS,
    afterFirst: async (slot) => {
      widgets = await cloneTemplate(pgTransaction(infra.db), await createTemplate(slot.base));
    },
  });
  note(`PostgreSQL and Redis: ${APP_PROCESSES_ON_POSTGRES} processes answer behind HAProxy at ${cluster.lbUrl}`);
  const backends = async () =>
    (
      await infra.db.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      )
    ).rows.map((row) => row.pid);
  let databasePids = [];
  const refresh = setInterval(() => {
    backends().then(
      (pids) => {
        databasePids = pids;
      },
      () => undefined,
    );
  }, 1000);
  databasePids = await backends();
  try {
    return await climb(
      {
        label: `PostgreSQL + Redis, ${APP_PROCESSES_ON_POSTGRES} processes behind HAProxy`,
        base: cluster.lbUrl,
        appPids: () => cluster.fleet.slots.map((s) => s.child.pid),
        databasePids: () => databasePids,
      },
      stub,
      relay,
      widgets,
    );
  } finally {
    clearInterval(refresh);
  }
};

// ---- Report ----------------------------------------------------------------------------------

const report = (result) => {
  const { rows } = result;
  const hasDatabase = rows.some((row) => row.databaseMsPerTurn !== null);
  console.log(`\n${result.label}: ${fmt(options.subaccounts)} sub-accounts, each an agent and a website widget`);
  console.log(
    `  the stub model answers after ${MODEL_MS} ms; "added" is the server's percentile minus the stub's median, called directly during the same step ("model p50"; its own tail, "model p99", counts against the server)`,
  );
  const header = [
    'offered/s'.padStart(9),
    'answered/s'.padStart(10),
    'model p50'.padStart(10),
    'model p99'.padStart(10),
    'p50 added'.padStart(10),
    'p99 added'.padStart(10),
    'errors'.padStart(6),
    'CPU/turn'.padStart(9),
    ...(hasDatabase ? ['PG CPU/turn'.padStart(11)] : []),
    'relay CPU/turn'.padStart(14),
    'x relay'.padStart(7),
    'RSS'.padStart(7),
    'load'.padStart(5),
    '',
  ];
  console.log(`  ${header.join('  ')}`);
  for (const row of rows) {
    console.log(
      `  ${[
        fmt(row.rate).padStart(9),
        row.answeredPerSecond.toFixed(1).padStart(10),
        ms(row.model.p50).padStart(10),
        ms(row.model.p99).padStart(10),
        ms(row.addedP50).padStart(10),
        ms(row.addedP99).padStart(10),
        String(row.errors).padStart(6),
        ms(row.cpuMsPerTurn).padStart(9),
        ...(hasDatabase ? [ms(row.databaseMsPerTurn ?? 0).padStart(11)] : []),
        ms(row.relayMsPerTurn).padStart(14),
        (row.cpuMsPerTurn / row.relayMsPerTurn).toFixed(1).padStart(7),
        mb(row.rss).padStart(7),
        row.load.toFixed(1).padStart(5),
        row.passed ? '' : 'BREAKS',
      ].join('  ')}`,
    );
  }
  const passed = rows.filter((row) => row.passed);
  const last = passed[passed.length - 1];
  const broke = rows.find((row) => !row.passed);
  const why = broke
    ? `${fmt(broke.rate)}/s broke it (${broke.errors ? `${broke.errors} errors` : `p99 added ${ms(broke.addedP99)}`})`
    : `no step up to --max-rate ${fmt(options.maxRate)} broke it: the capacity is at least this`;
  if (!last) {
    console.log(`  Capacity: below ${fmt(rows[0]?.rate ?? STEPS[0])} turns/s (${why})`);
    return { label: result.label, capacity: `below ${fmt(rows[0]?.rate ?? STEPS[0])}` };
  }
  console.log(
    `  Capacity: ${fmt(last.rate)} turns/s with p99 added <= ${TARGET_P99_ADDED_MS} ms and 0 errors (${why}); at it: p99 added ${ms(last.addedP99)}, CPU ${ms(last.cpuMsPerTurn)}/turn (the relay's ${ms(last.relayMsPerTurn)}), RSS ${mb(last.rss)} (peak of a process ${mb(last.peak)}); ${fmt(last.rate * 3600)} turns an hour, ${fmt(Math.round((last.rate * 3600) / options.subaccounts))} per sub-account`,
  );
  return { label: result.label, capacity: `${fmt(last.rate)}${broke ? '' : ' or more'}` };
};

// ---- The run ---------------------------------------------------------------------------------

const main = async () => {
  cleanUpOnExit();
  const cpus = os.cpus();
  console.log(
    `Capacity: ${fmt(options.subaccounts)} sub-accounts, steps of ${options.stepSeconds} s up to ${fmt(options.maxRate)} turns/s, target p99 added <= ${TARGET_P99_ADDED_MS} ms and 0 errors; server built ${statSync(SERVER_ENTRY).mtime.toISOString()}`,
  );
  console.log(
    `Machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), ${mb(os.totalmem())} memory, load average ${os.loadavg()[0].toFixed(1)} over the minute before the start (other work on the machine; the table gives it before each step); ${new Date().toISOString().slice(0, 10)}`,
  );
  console.log(
    `Rate limits: every visitor here calls from 127.0.0.1, so the per-address limits are raised (${Object.entries(
      RATE_LIMITS,
    )
      .map(([name, value]) => `${name}=${fmt(Number(value))}`)
      .join(
        ', ',
      )}, as e2e/serve.mjs does) and each widget's daily limit is ${fmt(DAILY_LIMIT)}; the per-visitor limit keeps its default (a visitor here sends at most ${TURNS_PER_CONVERSATION} messages).`,
  );
  const stub = await startStubModel({ latencyMs: MODEL_MS, text: STUB_TEXT });
  onCleanup('stop the stub model', () => stub.close());
  const relay = await startReferenceRelay(stub.url, await freePort());
  onCleanup('stop the reference relay', () => relay.stop());
  const results = [];
  if (options.db !== 'postgres') results.push(report(await runOnPglite(stub, relay)));
  if (options.db !== 'pglite') results.push(report(await runOnPostgres(stub, relay)));
  console.log('');
  for (const result of results) console.log(`Capacity on ${result.label}: ${result.capacity} turns/s`);
  return true;
};

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(`\nCapacity benchmark failed: ${error.stack ?? error.message}`);
} finally {
  visitorAgent.destroy();
  await cleanUp();
}
process.exit(ok ? 0 : 1);
