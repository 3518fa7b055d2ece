import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { ContinueLater } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { seedAgency } from '../../seed';
import { startPayload, testQuestion, useCompatibleProvider } from '../../testing/fixtures';
import { openTestDeps } from '../../testing/harness';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { until } from '../../testing/until';
import { createSession, SESSION_COOKIE } from '../auth/session';
import { forgetSubscribers } from '../webhooks/endpoints';
import { webhookEndpoints } from '../webhooks/schema';
import { runEvaluation } from './engine';
import { failStrandedRuns } from './run-watch';
import { evaluationConversations, evaluationRuns } from './schema';

/**
 * A run works in bounded steps: a step that is told to stop (its process stops) or runs out of
 * time starts nothing new, stores what was in flight and hands the rest back; the next step goes
 * on from there, each conversation stored once. A cancel written to the database reaches a running
 * step without the event bus.
 */
let opened: Awaited<ReturnType<typeof openTestDeps>>;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
let stub: StubLlm;
let cookie: string;
let subaccountId: string;

beforeAll(async () => {
  stub = await startStubLlm({ latencyMs: 40 });
  opened = await openTestDeps({
    FREE_PLAN_CREDITS: '1000000',
    EVAL_CONCURRENCY: '2',
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
  });
  // No job workers: the test runs the steps itself.
  app = (await buildApp(opened.deps)).app;
  await app.ready();
  const agency = await seedAgency(opened.deps.db, {
    accountName: 'Steps Agency',
    owner: { email: 'owner@steps.test', name: 'Owner' },
    subaccounts: ['Solar'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  await useCompatibleProvider(opened.deps.db, agency.accountId, stub.url);
  cookie = `${SESSION_COOKIE}=${(await createSession(opened.deps.db, opened.deps.env, agency.ownerId)).token}`;
});
afterAll(async () => {
  await app?.close();
  await opened?.close();
  await stub?.close();
});

const startRun = async (questions: number) => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/evaluation/run/evaluationdata',
    headers: { cookie, 'x-subaccount-id': subaccountId },
    payload: startPayload({
      customQuestions: Array.from({ length: questions }, (_, i) =>
        testQuestion(`q${i}`, `Question number ${i}`, { variations: 0, whenToAsk: 1 }),
      ),
    }) as object,
  });
  expect(response.statusCode).toBe(202);
  return (response.json() as { runId: string }).runId;
};
const storedOf = (runId: string) =>
  opened.deps.db.select().from(evaluationConversations).where(eq(evaluationConversations.runId, runId));
const statusOf = async (runId: string) =>
  (await opened.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)))[0]?.status;

describe('evaluation steps', () => {
  it('hands the rest back when its process stops, and the next step finishes it, each conversation once', async () => {
    const runId = await startRun(8);
    const stopping = new AbortController();
    const first = runEvaluation(opened.deps, runId, { signal: stopping.signal });
    await until(
      () => storedOf(runId),
      (rows) => rows.length >= 2,
    );
    stopping.abort();
    expect(await first).toBeInstanceOf(ContinueLater);
    const afterFirst = (await storedOf(runId)).length;
    expect(afterFirst).toBeLessThan(8);
    expect(await statusOf(runId)).toBe('running');

    expect(await runEvaluation(opened.deps, runId)).toMatchObject({ status: 'completed' });
    const rows = await storedOf(runId);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((row) => row.questionKey)).size).toBe(8);
  });

  it('starts nothing new once its step time is over', async () => {
    const runId = await startRun(4);
    expect(await runEvaluation(opened.deps, runId, { stepMs: 0 })).toBeInstanceOf(ContinueLater);
    expect(await storedOf(runId)).toHaveLength(0);
    expect(await runEvaluation(opened.deps, runId)).toMatchObject({ status: 'completed' });
  });

  it('stops at a cancel written to the database alone, with no event published', async () => {
    const runId = await startRun(200);
    const running = runEvaluation(opened.deps, runId);
    await until(
      () => storedOf(runId),
      (rows) => rows.length >= 1,
    );
    await opened.deps.db.update(evaluationRuns).set({ status: 'cancelled' }).where(eq(evaluationRuns.id, runId));
    expect(await running).toMatchObject({ status: 'cancelled' });
    expect((await storedOf(runId)).length).toBeLessThan(200);
  });

  it('ends a run whose job failed for good as failed, with its webhook event, and leaves a live one alone', async () => {
    const stranded = await startRun(3);
    const live = await startRun(3);
    const jobOf = async (runId: string) =>
      (await opened.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)))[0]?.jobId as string;
    // A run's process died mid-step as often as its job allows: the job failed for good.
    await opened.deps.db
      .update(jobs)
      .set({ status: 'failed', error: 'The process stopped', finishedAt: new Date() })
      .where(eq(jobs.id, await jobOf(stranded)));
    await opened.deps.db
      .update(evaluationRuns)
      .set({ status: 'running' })
      .where(inArray(evaluationRuns.id, [stranded, live]));
    await opened.deps.db.insert(webhookEndpoints).values({
      id: 'whe_steps_watch',
      subaccountId,
      url: 'https://hooks.example.test/in',
      events: ['evaluation.completed'],
      secretEncrypted: 'unused',
    });
    forgetSubscribers(subaccountId);

    expect(await failStrandedRuns(opened.deps)).toBe(1);
    const [run] = await opened.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, stranded));
    expect(run).toMatchObject({ status: 'failed', error: 'The run stopped and could not go on: The process stopped' });
    expect(run?.finishedAt).toBeInstanceOf(Date);
    expect(await statusOf(live)).toBe('running');
    // Its webhook event is in the outbox, written with the run's end.
    const outbox = await opened.deps.db.select().from(jobs).where(eq(jobs.type, 'domain-event.react'));
    expect(outbox.map((job) => (job.payload as { payload: { runId: string } }).payload.runId)).toEqual([stranded]);
    // A second pass finds nothing left to end.
    expect(await failStrandedRuns(opened.deps)).toBe(0);
  });
});
