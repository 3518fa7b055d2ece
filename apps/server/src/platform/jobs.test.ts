import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/harness';
import {
  BACKOFF_MAX_MS,
  backoffDelayMs,
  enqueueJob,
  getJob,
  parseRetryAfter,
  pruneFinishedJobs,
  RetryableJobError,
  registerJobHandler,
  waitForJob,
} from './jobs';
import { jobs } from './jobs.schema';

describe('job runner', () => {
  let t: TestApp;
  beforeAll(async () => {
    registerJobHandler('test:double', async (_deps, job) => ({ doubled: (job.payload as { n: number }).n * 2 }));
    registerJobHandler('test:fail', async () => {
      throw new Error('boom');
    });
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('runs a job and keeps its result', async () => {
    const id = await enqueueJob(t.deps, { type: 'test:double', payload: { n: 21 }, subaccountId: 'sub_x' });
    expect(id).toMatch(/^job_/);
    const job = await waitForJob(t.deps, id);
    expect(job).toMatchObject({ status: 'succeeded', result: { doubled: 42 }, error: null, subaccountId: 'sub_x' });
  });

  it('records the error of a failing job', async () => {
    const id = await enqueueJob(t.deps, { type: 'test:fail', payload: null });
    expect(await waitForJob(t.deps, id)).toMatchObject({ status: 'failed', error: 'boom' });
  });

  it('resumes a job left running by a stopped process', async () => {
    await t.deps.db.insert(jobs).values({
      id: 'job_orphan',
      type: 'test:double',
      status: 'running',
      payload: { n: 5 },
      heartbeatAt: new Date(Date.now() - 120_000),
    });
    // The sweep runs every 15 s; a restarted worker takes it back at start, simulated here:
    const { startJobWorkers } = await import('./jobs');
    const stop = startJobWorkers(t.deps);
    const job = await waitForJob(t.deps, 'job_orphan');
    await stop();
    expect(job).toMatchObject({ status: 'succeeded', result: { doubled: 10 } });
  });

  it('answers null for an unknown job', async () => {
    expect(await getJob(t.deps, 'job_missing')).toBeNull();
  });
});

describe('delays, retries and keys', () => {
  let t: TestApp;
  const seen: { attempt: number; at: number }[] = [];
  beforeAll(async () => {
    registerJobHandler('test:flaky', async (_deps, job) => {
      seen.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt < 3) throw new RetryableJobError('busy', { retryAfterMs: 50 });
      return { attempt: job.attempt };
    });
    registerJobHandler('test:permanent', async () => {
      throw new Error('refused for good');
    });
    registerJobHandler('test:always-busy', async () => {
      throw new RetryableJobError('still busy', { retryAfterMs: 10 });
    });
    registerJobHandler('test:when', async () => ({ ranAt: Date.now() }));
    t = await startTestApp({ JOB_POLL_MS: '20' });
  });
  afterAll(() => t.close());

  it('retries a temporary failure after its Retry-After until it succeeds', async () => {
    const id = await enqueueJob(t.deps, { type: 'test:flaky', payload: null, maxAttempts: 5 });
    const job = await waitForJob(t.deps, id);
    expect(job).toMatchObject({ status: 'succeeded', attempts: 3, result: { attempt: 3 } });
    expect(seen.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
  });

  it('fails a permanent failure at once and a temporary one after its last attempt', async () => {
    const permanent = await enqueueJob(t.deps, { type: 'test:permanent', payload: null, maxAttempts: 5 });
    expect(await waitForJob(t.deps, permanent)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'refused for good',
    });
    const busy = await enqueueJob(t.deps, { type: 'test:always-busy', payload: null, maxAttempts: 2 });
    expect(await waitForJob(t.deps, busy, 15_000)).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: 'still busy',
    });
  });

  it('runs a delayed job no earlier than asked', async () => {
    const before = Date.now();
    const id = await enqueueJob(t.deps, { type: 'test:when', payload: null, delayMs: 300 });
    const job = await waitForJob(t.deps, id);
    expect(job?.status).toBe('succeeded');
    expect(((job?.result ?? { ranAt: 0 }) as { ranAt: number }).ranAt - before).toBeGreaterThanOrEqual(300);
  });

  it('answers the first job for a key enqueued twice, even at once', async () => {
    const [a, b] = await Promise.all([
      enqueueJob(t.deps, { type: 'test:when', payload: null, idempotencyKey: 'once:1' }),
      enqueueJob(t.deps, { type: 'test:when', payload: null, idempotencyKey: 'once:1' }),
    ]);
    expect(a).toBe(b);
  });

  it('deletes finished jobs after the retention', async () => {
    const id = await enqueueJob(t.deps, { type: 'test:when', payload: null });
    await waitForJob(t.deps, id);
    await t.deps.db
      .update(jobs)
      .set({ finishedAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(jobs.id, id));
    await pruneFinishedJobs(t.deps, 2);
    expect(await getJob(t.deps, id)).toBeNull();
  });

  it('backs off exponentially, capped, and never under a Retry-After', () => {
    const flat = () => 0;
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, { random: flat }))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelayMs(30, { random: flat })).toBe(BACKOFF_MAX_MS);
    expect(backoffDelayMs(1, { random: flat, retryAfterMs: 30_000 })).toBe(30_000);
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(55_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
