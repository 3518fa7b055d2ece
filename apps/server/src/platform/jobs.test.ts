import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/harness';
import { enqueueJob, getJob, registerJobHandler, waitForJob } from './jobs';
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
