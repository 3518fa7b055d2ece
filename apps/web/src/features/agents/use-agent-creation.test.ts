import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILDER_ERRORS, POLL_TIMEOUT_MS, pollBuilderJob } from './use-agent-creation';

/** Answers GET /api/agent/jobs/{id} with the given responses in turn (real fetch shape). */
const answer = (...responses: { status: number; body: unknown }[]) => {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    calls.push(url);
    const next = responses.length > 1 ? responses.shift() : responses[0];
    return new Response(JSON.stringify(next?.body), { status: next?.status ?? 200 });
  });
  return calls;
};
const job = (status: string, extra: object = {}) => ({
  status: 200,
  body: { jobId: 'job_1', status, result: null, error: null, ...extra },
});

describe('builder job polling (spec/workspace-widget-demos.md 4 and 8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns the result of a succeeded job after polling every 750 ms', async () => {
    vi.useFakeTimers();
    const calls = answer(
      job('running'),
      job('succeeded', { result: { status: 'success', data: { agentId: 'agt_1' } } }),
    );
    const pending = pollBuilderJob('job_1', new AbortController().signal);
    await vi.advanceTimersByTimeAsync(749);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual({ status: 'success', data: { agentId: 'agt_1' } });
    expect(calls).toEqual(['/api/agent/jobs/job_1', '/api/agent/jobs/job_1']);
    vi.useRealTimers();
  });

  it.each([
    [
      'a missing job',
      [{ status: 404, body: { error: { code: 'BUILDER_JOB_NOT_FOUND', message: 'Builder job not found' } } }],
      BUILDER_ERRORS.notFound,
    ],
    [
      'a failed status call',
      [{ status: 500, body: { error: { code: 'INTERNAL_SERVER_ERROR', message: 'x' } } }],
      BUILDER_ERRORS.status,
    ],
    ['a failed job without a message', [job('failed')], BUILDER_ERRORS.failed],
    ['a failed job with its error', [job('failed', { error: 'The model refused' })], 'The model refused'],
    ['a succeeded job without a result', [job('succeeded')], BUILDER_ERRORS.empty],
  ])('raises the spec message for %s', async (_label, responses, message) => {
    answer(...(responses as { status: number; body: unknown }[]));
    await expect(pollBuilderJob('job_1', new AbortController().signal)).rejects.toThrow(message);
  });

  it('times out after 120 s', async () => {
    answer(job('running'));
    let now = 0;
    const clock = () => {
      const value = now;
      now += POLL_TIMEOUT_MS;
      return value;
    };
    await expect(pollBuilderJob('job_1', new AbortController().signal, clock)).rejects.toThrow(BUILDER_ERRORS.timeout);
  });
});
