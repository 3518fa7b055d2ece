#!/usr/bin/env node
/**
 * Connection dashboard benchmark: GET /api/connect/{connectId}/dashboard for a sub-account with
 * 100,000 messages (10,000 conversations over 60 days on five channels, two widgets, 20,000
 * metered calls, evaluation runs), beside another sub-account with 20,000 messages. The app runs
 * in-process (app.inject, the whole route: guard, one aggregating statement, serialisation).
 * Target: p95 < 300 ms. It runs on the embedded database (PGlite) and, when DATABASE_URL is set or
 * the machine has PostgreSQL 15, on PostgreSQL as well (BENCH_DB=pglite skips it).
 */
import { register } from 'tsx/esm/api';
import { startPostgres } from './widget-support.js';

register();
const { startTestApp } = await import('../../apps/server/src/testing/harness.ts');
const { seedAgency } = await import('../../apps/server/src/seed.ts');
const { seedAgent } = await import('../../apps/server/src/features/agents/seed.ts');
const { bulkInsert } = await import('../../apps/server/src/db/bulk-insert.ts');
const { messages, threads } = await import('../../apps/server/src/features/conversations/schema.ts');
const { connections } = await import('../../apps/server/src/features/connections/schema.ts');
const { usageLogs } = await import('../../apps/server/src/features/billing/schema.ts');
const { evaluationRuns, evaluationConversations } = await import('../../apps/server/src/features/evaluation/schema.ts');

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const PER_THREAD = 10;
const DAYS = 60;
const REQUESTS = 40;
const TARGET_P95_MS = 300;
const CHANNELS = [
  ['widget', 0.5],
  ['website-block', 0.1],
  ['sms', 0.2],
  ['whatsapp', 0.15],
  ['api', 0.05],
];
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pickChannel = () => {
  let roll = random();
  for (const [channel, share] of CHANNELS) {
    roll -= share;
    if (roll <= 0) return channel;
  }
  return 'widget';
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const seedMessages = async (db, { subaccountId, agentId, count, prefix }) => {
  const now = Date.now();
  const threadRows = [];
  const messageRows = [];
  for (let i = 0; i < count / PER_THREAD; i += 1) {
    const channel = pickChannel();
    const start = now - random() * DAYS * 86_400_000;
    const id = `thr_${prefix}${i}`;
    const ref =
      channel === 'widget'
        ? `wgt_${prefix}a`
        : channel === 'website-block'
          ? `wgt_${prefix}b`
          : `con_${prefix}${channel}`;
    threadRows.push({ id, channel, ref, start, handled: random() < 0.01 });
    for (let j = 0; j < PER_THREAD; j += 1)
      messageRows.push({
        id: `msg_${prefix}${i}_${j}`,
        threadId: id,
        role: j % 2 ? 'assistant' : 'user',
        at: Math.min(now, start + j * 30_000),
      });
  }
  await bulkInsert(
    db,
    threads,
    {
      id: ['text', (row) => row.id],
      subaccount_id: ['text', () => subaccountId],
      agent_id: ['text', () => agentId],
      channel: ['text', (row) => row.channel],
      channel_ref: ['text', (row) => row.ref],
      contact_identifier: ['text', (row) => `visitor_${row.id}`],
      handled_by_user_id: ['text', () => null],
      message_count: ['int', () => PER_THREAD],
      last_message_at: ['timestamptz', (row) => new Date(row.start + PER_THREAD * 30_000).toISOString()],
      created_at: ['timestamptz', (row) => new Date(row.start).toISOString()],
    },
    threadRows,
  );
  for (let i = 0; i < messageRows.length; i += 20_000)
    await bulkInsert(
      db,
      messages,
      {
        id: ['text', (row) => row.id],
        thread_id: ['text', (row) => row.threadId],
        subaccount_id: ['text', () => subaccountId],
        role: ['text', (row) => row.role],
        content: ['text', () => 'How much does a 6 kW solar installation cost with the current incentives?'],
        created_at: ['timestamptz', (row) => new Date(row.at).toISOString()],
      },
      messageRows.slice(i, i + 20_000),
    );
};

const runOn = async (label) => {
  const t = await startTestApp();
  try {
    const { db } = t.deps;
    const agency = await seedAgency(db, {
      accountName: 'Bench Agency',
      owner: { email: 'owner@dashboard.bench', name: 'Owner' },
      subaccounts: ['Busy Client', 'Other Client'],
    });
    const [subaccountId, otherId] = agency.subaccountIds;
    const agent = await seedAgent(db, { accountId: agency.accountId, subaccountId });
    const other = await seedAgent(db, { accountId: agency.accountId, subaccountId: otherId });
    const seeding = performance.now();
    await seedMessages(db, { subaccountId, agentId: agent.id, count: MESSAGES, prefix: 'b' });
    await seedMessages(db, { subaccountId: otherId, agentId: other.id, count: MESSAGES / 5, prefix: 'o' });
    for (const [suffix, type] of [
      ['a', 'website-widget'],
      ['b', 'website-block'],
    ])
      await db.insert(connections).values({
        id: `con_b${suffix}`,
        subaccountId,
        accountId: agency.accountId,
        type,
        name: `Bench ${type}`,
        widgetId: `wgt_b${suffix}`,
        buildId: agent.id,
        settings: { dailyLimit: 200 },
        deployedSettings: { dailyLimit: 200 },
      });
    await bulkInsert(
      db,
      usageLogs,
      {
        id: ['text', (row) => `use_${row}`],
        account_id: ['text', () => agency.accountId],
        subaccount_id: ['text', (row) => (row % 5 ? subaccountId : otherId)],
        credits: ['numeric', () => 0.35],
        charged: ['numeric', () => 0.35],
        source: ['text', () => 'chat'],
        idempotency_key: ['text', (row) => `key_${row}`],
        created_at: ['timestamptz', () => new Date(Date.now() - random() * DAYS * 86_400_000).toISOString()],
      },
      Array.from({ length: 20_000 }, (_, i) => i),
    );
    for (let r = 0; r < 5; r += 1) {
      const runId = `evr_bench${r}`;
      await db.insert(evaluationRuns).values({
        id: runId,
        evaluationId: `evl_bench${r}`,
        accountId: agency.accountId,
        subaccountId,
        name: `Run ${r}`,
        type: 'chatcompletion',
        agentId: agent.id,
        targetLabel: 'Bench',
        testingModel: 'offline',
        payload: {},
        status: 'completed',
        total: 50,
        finishedAt: new Date(Date.now() - r * 86_400_000),
      });
      await db.insert(evaluationConversations).values(
        Array.from({ length: 50 }, (_, position) => ({
          id: `evc_bench${r}_${position}`,
          runId,
          questionKey: `q${position}`,
          category: 'custom',
          position,
          variation: 0,
          question: 'q',
          originalQuestion: 'q',
          successCriteria: 'c',
          whenToAsk: 0,
          transcript: [],
          answer: 'a',
          outcome: position % 4 ? 'passed' : 'failed',
          passed: position % 4 !== 0,
          score: 1,
          reasoning: 'r',
        })),
      );
    }
    const seededIn = performance.now() - seeding;
    const cookie = await t.cookieFor(agency.ownerId);
    const ask = async () => {
      const started = performance.now();
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/connect/${subaccountId}/dashboard`,
        headers: { cookie },
      });
      const ms = performance.now() - started;
      if (res.statusCode !== 200)
        throw new Error(`The dashboard answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return { ms, body: res.json() };
    };
    const first = await ask();
    for (let i = 0; i < 3; i += 1) await ask();
    const times = [];
    for (let i = 0; i < REQUESTS; i += 1) times.push((await ask()).ms);
    const month = first.body.channels.reduce((sum, entry) => sum + entry.month.messages, 0);
    const p95 = percentile(times, 95);
    console.log(`[${label}] ${MESSAGES.toLocaleString('en')} messages seeded in ${(seededIn / 1000).toFixed(1)} s`);
    console.log(
      `  first ${first.ms.toFixed(1)} ms; p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${REQUESTS} requests; target p95 < ${TARGET_P95_MS} ms: ${p95 < TARGET_P95_MS ? 'meets' : 'MISSES'}`,
    );
    console.log(
      `  (this month: ${month.toLocaleString('en')} messages on ${first.body.channels.length} channels; ${first.body.series.length} chart points)`,
    );
    return p95 < TARGET_P95_MS;
  } finally {
    await t.close();
  }
};

let ok = await runOn('embedded database (PGlite)');
if (process.env.BENCH_DB !== 'pglite') {
  let postgres = null;
  if (!process.env.DATABASE_URL) {
    postgres = await startPostgres(process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + 1 : 54_329);
    if (postgres) process.env.DATABASE_URL = postgres.url;
  }
  if (process.env.DATABASE_URL) {
    try {
      ok = (await runOn('PostgreSQL')) && ok;
    } finally {
      postgres?.stop();
    }
  }
}
console.log(ok ? 'PASS' : 'FAIL');
process.exit(ok ? 0 : 1);
