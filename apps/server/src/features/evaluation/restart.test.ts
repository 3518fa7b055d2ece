import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { Deps } from '../../platform/deps';
import { loadEnv } from '../../platform/env';
import { startJobWorkers } from '../../platform/jobs';
import { closeDeps, createDeps } from '../../platform/runtime';
import { seedAgency } from '../../seed';
import { startPayload, testQuestion, useCompatibleProvider } from '../../testing/fixtures';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { createSession, SESSION_COOKIE } from '../auth/session';
import { evaluationConversations, evaluationRuns } from './schema';

let dataDir: string;
let stub: StubLlm;

/** A server process as far as the database is concerned: its own connection, app and workers. */
const startServer = async () => {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    DATA_DIR: dataDir,
    FREE_PLAN_CREDITS: '1000000',
    EVAL_CONCURRENCY: '2',
    JOB_POLL_MS: '50',
    // The model stub listens on loopback.
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
  });
  const deps = await createDeps(env, { database: { dataDir: path.join(dataDir, 'pglite') } });
  const { app } = await buildApp(deps);
  await app.ready();
  const stopWorkers = startJobWorkers(deps);
  return { deps, app, stopWorkers };
};

const conversationsOf = (deps: Deps, runId: string) =>
  deps.db.select().from(evaluationConversations).where(eq(evaluationConversations.runId, runId));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sb-eval-restart-'));
  stub = await startStubLlm({ latencyMs: 60 });
});

afterAll(async () => {
  await stub?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('a killed server resumes the run on restart; every conversation is stored exactly once', async () => {
  const first = await startServer();
  const agency = await seedAgency(first.deps.db, {
    accountName: 'Restart Agency',
    owner: { email: 'restart@eval.test', name: 'Owner' },
    subaccounts: ['Solar'],
  });
  await useCompatibleProvider(first.deps.db, agency.accountId, stub.url);
  const session = await createSession(first.deps.db, first.deps.env, agency.ownerId);
  const questions = Array.from({ length: 10 }, (_, i) =>
    testQuestion(`q${i}`, `Question number ${i}`, { variations: 1, whenToAsk: 2 }),
  );
  const response = await first.app.inject({
    method: 'POST',
    url: '/api/evaluation/run/evaluationdata',
    headers: { cookie: `${SESSION_COOKIE}=${session.token}` },
    payload: startPayload({ customQuestions: questions }) as object,
  });
  expect(response.statusCode).toBe(202);
  const { runId } = response.json() as { runId: string };

  // Let a few conversations finish, then kill: the database goes away under the running job.
  await expect
    .poll(async () => (await conversationsOf(first.deps, runId)).length, { timeout: 20_000, interval: 50 })
    .toBeGreaterThanOrEqual(3);
  await first.app.close();
  await closeDeps(first.deps);
  await Promise.race([first.stopWorkers(), new Promise((resolve) => setTimeout(resolve, 3000))]);

  // A restarted process takes back a running job once its heartbeat is stale.
  await new Promise((resolve) => setTimeout(resolve, 10_500));
  const second = await startServer();
  try {
    const before = (await conversationsOf(second.deps, runId)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(20);
    await expect
      .poll(
        async () => (await second.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)))[0]?.status,
        { timeout: 30_000, interval: 100 },
      )
      .toBe('completed');
    const rows = await conversationsOf(second.deps, runId);
    const keys = rows.map((row) => `${row.questionKey}#${row.variation}`);
    expect(keys).toHaveLength(20);
    expect(new Set(keys).size).toBe(20);
    expect(rows.every((row) => row.error === null && row.passed)).toBe(true);
  } finally {
    await second.stopWorkers();
    await second.app.close();
    await closeDeps(second.deps);
  }
}, 90_000);
