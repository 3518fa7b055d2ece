import { eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDeps, startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { jobs } from '../jobs.schema';
import {
  BACKOFF_MAX_MS,
  backoffDelayMs,
  claimPeriod,
  continueLater,
  enqueueJob,
  getJob,
  parseRetryAfter,
  pruneFinishedJobs,
  RetryableJobError,
  registerJobHandler,
  requeueStale,
  startJobWorkers,
  startRecurring,
  waitForJob,
} from '.';

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

/** A gate a test opens: handlers wait on it to stay running until the test says. */
const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

const statusOf = async (t: { deps: TestApp['deps'] }, id: string) =>
  (await t.deps.db.select().from(jobs).where(eq(jobs.id, id)))[0];

describe('queues', () => {
  let t: TestApp;
  const long = gate();
  beforeAll(async () => {
    registerJobHandler('test:campaign-round', () => long.opened, 'campaigns');
    registerJobHandler('test:reply', async () => ({ answered: Date.now() }), 'messages');
    t = await startTestApp({ JOB_POLL_MS: '20' });
  });
  afterAll(async () => {
    long.open();
    await t.close();
  });

  it('answers a reply while long jobs of another queue fill every slot of theirs', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 8 }, () => enqueueJob(t.deps, { type: 'test:campaign-round', payload: null })),
    );
    await until(
      async () => (await Promise.all(rounds.map((id) => getJob(t.deps, id)))).filter((j) => j?.status === 'running'),
      (running) => running.length === 2,
    );
    const reply = await enqueueJob(t.deps, { type: 'test:reply', payload: null });
    expect(await waitForJob(t.deps, reply, 5_000)).toMatchObject({ status: 'succeeded' });
    // The campaign queue runs two at a time; the rest wait for their own slots.
    const states = await Promise.all(rounds.map((id) => getJob(t.deps, id)));
    expect(states.filter((job) => job?.status === 'running')).toHaveLength(2);
  });

  it('runs higher priority first within a queue', async () => {
    const order: string[] = [];
    registerJobHandler('test:ordered', async (_deps, job) => order.push(String(job.payload)), 'knowledge');
    const stop = gate();
    registerJobHandler('test:hold-knowledge', () => stop.opened, 'knowledge');
    const holder = await enqueueJob(t.deps, { type: 'test:hold-knowledge', payload: null });
    await until(
      () => getJob(t.deps, holder),
      (job) => job?.status === 'running',
    );
    const low = await enqueueJob(t.deps, { type: 'test:ordered', payload: 'low', priority: 0 });
    const high = await enqueueJob(t.deps, { type: 'test:ordered', payload: 'high', priority: 10 });
    stop.open();
    await waitForJob(t.deps, low);
    await waitForJob(t.deps, high);
    expect(order).toEqual(['high', 'low']);
  });
});

describe('claims with an owner token', () => {
  let t: TestApp;
  const runs: { attempt: number; release: () => void; signal: AbortSignal }[] = [];
  beforeAll(async () => {
    registerJobHandler(
      'test:stalls-once',
      async (_deps, job) => {
        if (job.attempt === 1) {
          const held = gate();
          runs.push({ attempt: job.attempt, release: held.open, signal: job.signal });
          await held.opened;
          return { by: 'stalled worker' };
        }
        return { by: 'second worker' };
      },
      'messages',
    );
    t = await startTestApp({ JOB_POLL_MS: '20' });
  });
  afterAll(() => t.close());

  it('refuses the result of a worker whose stalled claim was taken back', async () => {
    const id = await enqueueJob(t.deps, { type: 'test:stalls-once', payload: null, maxAttempts: 3 });
    await until(
      () => runs,
      (list) => list.length === 1,
    );
    // The first worker stalls: its heartbeat goes stale, the sweep queues the job again, and a
    // second worker runs it to the end.
    await t.deps.db
      .update(jobs)
      .set({ heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, id));
    await requeueStale(t.deps, new Date(Date.now() - 30_000));
    expect(await waitForJob(t.deps, id)).toMatchObject({ status: 'succeeded', result: { by: 'second worker' } });
    // The stalled worker wakes and finishes: its write names a claim that no longer holds.
    runs[0]?.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await getJob(t.deps, id)).toMatchObject({ status: 'succeeded', result: { by: 'second worker' } });
    expect((await statusOf(t, id))?.owner).toBeNull();
  });
});

describe('stopping with jobs running', () => {
  it('hands a job back at its next step, uncounted, and another process goes on from there', async () => {
    const opened = await openTestDeps({ JOB_POLL_MS: '20' });
    const done: number[] = [];
    registerJobHandler(
      'test:steps',
      async (_deps, job) => {
        for (let step = done.length; step < 6; step += 1) {
          if (job.signal.aborted) return continueLater();
          done.push(step);
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        return { steps: done.length };
      },
      'evaluation',
    );
    try {
      const stopFirst = startJobWorkers(opened.deps);
      const id = await enqueueJob(opened.deps, { type: 'test:steps', payload: null, maxAttempts: 1 });
      await until(
        () => done,
        (list) => list.length >= 2,
      );
      await stopFirst(5_000);
      const handedBack = await statusOf(opened, id);
      expect(handedBack).toMatchObject({ status: 'queued', attempts: 0, owner: null });
      expect(done.length).toBeLessThan(6);
      const stopSecond = startJobWorkers(opened.deps);
      // maxAttempts 1: the interrupted run did not use the job's only attempt.
      expect(await waitForJob(opened.deps, id)).toMatchObject({ status: 'succeeded', result: { steps: 6 } });
      await stopSecond();
      expect(done).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await opened.close();
    }
  });

  it('hands back a job that ignores its signal once the grace is over, and refuses its late result', async () => {
    const opened = await openTestDeps({ JOB_POLL_MS: '20' });
    const stuck = gate();
    let started = 0;
    registerJobHandler(
      'test:deaf',
      async () => {
        started += 1;
        if (started === 1) await stuck.opened;
        return { run: started };
      },
      'evaluation',
    );
    try {
      const stop = startJobWorkers(opened.deps);
      const id = await enqueueJob(opened.deps, { type: 'test:deaf', payload: null });
      await until(
        () => started,
        (count) => count === 1,
      );
      const before = Date.now();
      await stop(200);
      expect(Date.now() - before).toBeLessThan(2_000);
      expect(await statusOf(opened, id)).toMatchObject({ status: 'queued', owner: null, attempts: 0 });
      const again = startJobWorkers(opened.deps);
      expect(await waitForJob(opened.deps, id)).toMatchObject({ status: 'succeeded', result: { run: 2 } });
      stuck.open();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await getJob(opened.deps, id)).toMatchObject({ result: { run: 2 } });
      await again();
    } finally {
      stuck.open();
      await opened.close();
    }
  });

  it('goes on with a long job in bounded steps without counting them as attempts', async () => {
    const opened = await openTestDeps({ JOB_POLL_MS: '20' });
    let calls = 0;
    registerJobHandler(
      'test:rounds',
      async (_deps, job) => {
        calls += 1;
        return calls < 4 ? continueLater() : { calls, attempt: job.attempt };
      },
      'campaigns',
    );
    try {
      const stop = startJobWorkers(opened.deps);
      const id = await enqueueJob(opened.deps, { type: 'test:rounds', payload: null, maxAttempts: 1 });
      expect(await waitForJob(opened.deps, id)).toMatchObject({
        status: 'succeeded',
        result: { calls: 4, attempt: 1 },
      });
      await stop();
    } finally {
      await opened.close();
    }
  });
});

describe('recurring tasks', () => {
  it('run once per period across processes', async () => {
    const opened = await openTestDeps();
    const periods: number[] = [];
    const task = {
      name: 'test:tick',
      everyMs: 150,
      // The period the run was claimed for: a run that starts late on a busy machine is still its own.
      run: async (_deps: unknown, _signal: AbortSignal, period: number) => {
        periods.push(period);
      },
    };
    try {
      // Three processes' schedulers on one database.
      const stops = [
        startRecurring(opened.deps, [task]),
        startRecurring(opened.deps, [task]),
        startRecurring(opened.deps, [task]),
      ];
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await Promise.all(stops.map((stop) => stop()));
      expect(periods.length).toBeGreaterThanOrEqual(1);
      expect(new Set(periods).size).toBe(periods.length);
      expect(await claimPeriod(opened.deps, 'test:tick', 1)).toBe(false);
    } finally {
      await opened.close();
    }
  });
});

describe('polling', () => {
  it('asks once for every queue while idle, and claims a job that another process enqueued', async () => {
    const opened = await openTestDeps({ JOB_POLL_MS: '20' });
    const statements: string[] = [];
    const db = new Proxy(opened.deps.db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? (query: Parameters<typeof target.execute>[0]) => {
              statements.push(new PgDialect().sqlToQuery(query as never).sql);
              return target.execute(query);
            }
          : Reflect.get(target, key, receiver),
    });
    const deps = { ...opened.deps, db };
    registerJobHandler('test:polled', async () => ({ polled: true }), 'knowledge');
    try {
      const stop = startJobWorkers(deps);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const claims = () => statements.filter((text) => text.includes("SET status = 'running'")).length;
      const probes = () => statements.filter((text) => text.includes('unnest(')).length;
      // At start every queue is claimed from once; after that an idle poll is one statement.
      const claimsAtRest = claims();
      const probesAtRest = probes();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(probes() - probesAtRest).toBeGreaterThanOrEqual(3);
      expect(claims()).toBe(claimsAtRest);
      // Another process's job: inserted without waking this one, found by the next poll.
      await opened.deps.db.insert(jobs).values({ id: 'job_from_elsewhere', type: 'test:polled', queue: 'knowledge' });
      expect(await waitForJob(opened.deps, 'job_from_elsewhere')).toMatchObject({
        status: 'succeeded',
        result: { polled: true },
      });
      await stop();
    } finally {
      await opened.close();
    }
  });
});
