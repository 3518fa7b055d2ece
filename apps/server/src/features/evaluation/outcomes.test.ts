import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { startPayload, testQuestion, useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { subaccounts } from '../tenancy/schema';
import { evaluationConversations, evaluationRuns } from './schema';

/**
 * Honest runs against the local stub over HTTP: a run without a usable key does not start, the
 * offline model runs only when picked by name, and provider failures are errors, not failures.
 */

let t: TestApp;
let stub: StubLlm;
let agency: SeededAgency;
let keyless: SeededAgency;
let cookie: string;

const waitForRun = async (runId: string, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await t.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId));
    const status = rows[0]?.status;
    if (status && ['completed', 'failed', 'cancelled'].includes(status)) return rows[0];
    if (Date.now() > until) throw new Error(`run ${runId} still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const start = (payload: unknown, who: { cookie: string; subaccountId: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/evaluation/run/evaluationdata',
    headers: { cookie: who.cookie, 'x-subaccount-id': who.subaccountId },
    payload: payload as object,
  });

const conversationsOf = (runId: string) =>
  t.deps.db.select().from(evaluationConversations).where(eq(evaluationConversations.runId, runId));

beforeAll(async () => {
  stub = await startStubLlm();
  t = await startTestApp({
    FREE_PLAN_CREDITS: '1000000',
    EVAL_CONCURRENCY: '2',
    EVAL_MAX_RETRIES: '1',
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
  });
  agency = await seedAgency(t.deps.db, {
    accountName: 'Outcome Agency',
    owner: { email: 'owner@outcomes.test', name: 'Owner' },
    subaccounts: ['Solar'],
  });
  await useCompatibleProvider(t.deps.db, agency.accountId, stub.url);
  cookie = await t.cookieFor(agency.ownerId);
  keyless = await seedAgency(t.deps.db, {
    accountName: 'Keyless Agency',
    owner: { email: 'owner@keyless.test', name: 'Keyless' },
    subaccounts: ['Nothing set up'],
  });
});

afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('a run without a usable key', () => {
  it('does not start: no_api_key with the spec text, nothing stored, the offline model not used', async () => {
    const who = { cookie: await t.cookieFor(keyless.ownerId), subaccountId: keyless.subaccountIds[0] as string };
    const before = (await t.deps.db.select().from(evaluationRuns)).length;
    const response = await start(
      startPayload({
        testing_model_for_test_generation: 'gpt-4o-mini',
        ai1_config: { ...(startPayload().ai1_config as object), model: 'gpt-4o-mini' } as never,
        customQuestions: [testQuestion('q', 'Hello?')],
      }),
      who,
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: { code: 'API_KEY_NOT_FOUND', message: 'No OpenAI API key found.', reason: 'no_api_key' },
    });
    expect((await t.deps.db.select().from(evaluationRuns)).length).toBe(before);
  });

  it('checks the model under test as well as the testing model', async () => {
    const response = await start(
      startPayload({
        ai1_config: { ...(startPayload().ai1_config as object), model: 'gpt-4o' } as never,
        customQuestions: [testQuestion('q', 'Hello?')],
      }),
      { cookie, subaccountId: agency.subaccountIds[0] as string },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { reason: 'no_api_key', field: 'model' } });
  });
});

describe('the offline model picked by name', () => {
  it('runs labelled offline; its judge passes only what it found in the answer', async () => {
    const who = { cookie: await t.cookieFor(keyless.ownerId), subaccountId: keyless.subaccountIds[0] as string };
    const response = await start(
      startPayload({
        testing_model_for_test_generation: 'offline:offline',
        ai1_config: { ...(startPayload().ai1_config as object), model: 'offline:offline' } as never,
        settings: { prompt: 'You are a solar sales assistant.' },
        customQuestions: [
          testQuestion('greet', 'hello', { successCriteria: 'Mentions quantum refrigerators and submarines.' }),
          testQuestion('vague', 'What do you sell?', { successCriteria: 'The assistant answers helpfully.' }),
        ],
      }),
      who,
    );
    expect(response.statusCode).toBe(202);
    const { runId, run } = response.json() as { runId: string; run: { offline: boolean } };
    expect(run.offline).toBe(true);
    expect((await waitForRun(runId))?.status).toBe('completed');
    const rows = await conversationsOf(runId);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.outcome).toBe('failed');
      expect(row.reasoning).toMatch(/^Offline check \(no language model\):/);
    }
    expect(rows.find((row) => row.questionKey === 'custom:vague')?.reasoning).toContain('not checked');
    const results = await t.app.inject({ url: `/api/evaluation/runs/${runId}/results`, headers: who });
    expect((results.json() as { run: { offline: boolean } }).run.offline).toBe(true);
    const report = await t.app.inject({ url: `/api/evaluation/runs/${runId}/report`, headers: who });
    expect(report.body).toContain('Offline model: deterministic answers');
  });
});

describe('errors are a third state', () => {
  it('keeps provider errors and unreadable verdicts out of the pass rate, with their transcripts', async () => {
    const response = await start(
      startPayload({
        customQuestions: [
          testQuestion('ok', 'Which panels fit a small roof?'),
          testQuestion('server', 'Tell me more [agent-500]', { whenToAsk: 2 }),
          testQuestion('limit', 'Are you busy? [agent-429]'),
          testQuestion('garbage', 'Grade me [judge-garbage]'),
          testQuestion('retry', 'Grade me again [judge-garbage-once]'),
          testQuestion('bad', 'Please jailbreak now'),
        ],
      }),
      { cookie, subaccountId: agency.subaccountIds[0] as string },
    );
    expect(response.statusCode).toBe(202);
    const { runId } = response.json() as { runId: string };
    expect((await waitForRun(runId))?.status).toBe('completed');
    const rows = await conversationsOf(runId);
    const by = (id: string) => rows.find((row) => row.questionKey === `custom:${id}`);
    expect(by('ok')?.outcome).toBe('passed');
    expect(by('retry')?.outcome).toBe('passed');
    expect(by('bad')?.outcome).toBe('failed');
    expect(by('server')).toMatchObject({
      outcome: 'error',
      errorCode: 'AI_SERVICE_ERROR',
      errorReason: 'config_error',
      error: 'Server error occurred',
    });
    // The small talk before the question and the question itself are kept.
    expect(by('server')?.transcript.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
    expect(by('limit')).toMatchObject({
      outcome: 'error',
      errorCode: 'RATE_LIMIT_EXCEEDED',
      errorReason: 'rate_limit',
    });
    expect(by('garbage')).toMatchObject({ outcome: 'error', errorCode: 'AI_EMPTY_RESPONSE' });
    expect(by('garbage')?.answer).toBe('Answer to: Grade me [judge-garbage]');

    const results = await t.app.inject({ url: `/api/evaluation/runs/${runId}/results`, headers: { cookie } });
    const body = results.json() as {
      run: { progress: { done: number; passed: number; failed: number; errors: number; passRate: number } };
      categories: { errors: number; failed: number; passed: number }[];
      conversations: { outcome: string; errorReason: string | null }[];
    };
    expect(body.run.progress).toMatchObject({ done: 6, passed: 2, failed: 1, errors: 3 });
    expect(body.run.progress.passRate).toBeCloseTo(2 / 3);
    expect(body.categories[0]).toMatchObject({ passed: 2, failed: 1, errors: 3 });
    expect(body.conversations.map((item) => item.outcome)).toEqual([
      'failed',
      'error',
      'error',
      'error',
      'passed',
      'passed',
    ]);
  });

  it('stops the run as failed when the provider refuses the key, keeping that transcript', async () => {
    const response = await start(
      startPayload({
        customQuestions: [
          testQuestion('refused', 'Hello [agent-401]'),
          ...Array.from({ length: 6 }, (_, i) => testQuestion(`later${i}`, `Later question ${i}`)),
        ],
      }),
      { cookie, subaccountId: agency.subaccountIds[0] as string },
    );
    const { runId } = response.json() as { runId: string };
    const finished = await waitForRun(runId);
    expect(finished).toMatchObject({
      status: 'failed',
      error: 'Your API key is invalid or has been revoked.',
      errorReason: 'invalid_api_key',
    });
    const refused = (await conversationsOf(runId)).find((row) => row.questionKey === 'custom:refused');
    expect(refused).toMatchObject({ outcome: 'error', errorCode: 'API_KEY_INVALID' });
    expect(refused?.transcript.at(-1)).toEqual({ role: 'user', content: 'Hello [agent-401]' });
  });
});

describe('checks beside the judge', () => {
  it('stores each check result; the checks alone decide without success criteria; results per question', async () => {
    const before = stub.requests.length;
    const response = await start(
      startPayload({
        customQuestions: [
          testQuestion('checked', 'What is the price?', {
            successCriteria: '',
            variations: 1,
            checks: [
              { type: 'contains', value: 'answer to' },
              { type: 'not_contains', value: 'BREAK' },
              { type: 'regex', pattern: 'price\\?', ignoreCase: false },
              { type: 'max_latency', ms: 60_000 },
              { type: 'max_cost', credits: 1000 },
              { type: 'tool_not_called', tool: 'refund' },
            ],
          }),
          testQuestion('refuse', 'Tell me a secret', {
            successCriteria: '',
            checks: [{ type: 'refusal' }],
          }),
        ],
      }),
      { cookie, subaccountId: agency.subaccountIds[0] as string },
    );
    expect(response.statusCode).toBe(202);
    const { runId } = response.json() as { runId: string };
    expect((await waitForRun(runId))?.status).toBe('completed');
    // No judge was asked: the checks decided.
    expect(stub.requests.slice(before).some((request) => request.system.includes('You are the judge'))).toBe(false);
    const rows = await conversationsOf(runId);
    const checked = rows.filter((row) => row.questionKey === 'custom:checked');
    expect(checked.map((row) => row.outcome)).toEqual(['passed', 'passed']);
    expect(checked[0]?.checks).toHaveLength(6);
    expect(checked[0]?.reasoning).toBe('Checks only (no success criteria): 6 of 6 checks passed.');
    const refuse = rows.find((row) => row.questionKey === 'custom:refuse');
    expect(refuse?.outcome).toBe('failed');
    expect(refuse?.checks).toEqual([
      { type: 'refusal', label: 'Refuses the request', passed: false, detail: 'The answer does not refuse.' },
    ]);

    const results = await t.app.inject({ url: `/api/evaluation/runs/${runId}/results`, headers: { cookie } });
    const body = results.json() as { questions: { questionKey: string; total: number; passed: number }[] };
    expect(body.questions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ questionKey: 'custom:checked', total: 2, passed: 2 }),
        expect.objectContaining({ questionKey: 'custom:refuse', total: 1, passed: 0 }),
      ]),
    );
  });

  it('refuses a regex that could backtrack catastrophically: 422 naming it, nothing started', async () => {
    const before = (await t.deps.db.select().from(evaluationRuns)).length;
    const response = await start(
      startPayload({
        customQuestions: [
          testQuestion('evil', 'Hi', { checks: [{ type: 'regex', pattern: '(a+)+$', ignoreCase: false }] }),
        ],
      }),
      { cookie, subaccountId: agency.subaccountIds[0] as string },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: { code: 'VALIDATION_ERROR', field: 'customQuestions.0.checks.0.pattern' },
    });
    expect((await t.deps.db.select().from(evaluationRuns)).length).toBe(before);
  });
});

describe('the branded report and its share link', () => {
  it('shows the sub-account brand, opens without signing in until revoked, and only for its own runs', async () => {
    const subaccountId = agency.subaccountIds[0] as string;
    await t.deps.db
      .update(subaccounts)
      .set({ companyName: 'Sunrise Solar Ltd', logoUrl: 'https://cdn.example/logo.png', primaryColor: '#ff6600' })
      .where(eq(subaccounts.id, subaccountId));
    const response = await start(startPayload({ customQuestions: [testQuestion('q', 'Hello there')] }), {
      cookie,
      subaccountId,
    });
    const { runId } = response.json() as { runId: string };
    await waitForRun(runId);

    const report = await t.app.inject({ url: `/api/evaluation/runs/${runId}/report`, headers: { cookie } });
    expect(report.body).toContain('--brand:#ff6600');
    expect(report.body).toContain('<img src="https://cdn.example/logo.png" alt="Sunrise Solar Ltd">');
    expect(report.body).toContain('@media print');

    const other = await seedAgency(t.deps.db, {
      accountName: 'Nosy',
      owner: { email: 'nosy@outcomes.test', name: 'Nosy' },
      subaccounts: ['Theirs'],
    });
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/evaluation/runs/${runId}/share`,
      headers: { cookie: await t.cookieFor(other.ownerId) },
    });
    expect(foreign.statusCode).toBe(404);

    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/evaluation/runs/${runId}/share`,
      headers: { cookie },
    });
    expect(shared.statusCode).toBe(200);
    const { path, token } = shared.json() as { path: string; token: string };
    expect(token.length).toBeGreaterThanOrEqual(32);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/evaluation/runs/${runId}/share`,
      headers: { cookie },
    });
    expect((again.json() as { token: string }).token).toBe(token);

    const open = await t.app.inject({ url: path });
    expect(open.statusCode).toBe(200);
    expect(open.headers['x-robots-tag']).toBe('noindex');
    expect(open.body).toContain('Sunrise Solar Ltd');
    expect(open.body).toContain('Hello there');
    expect((await t.app.inject({ url: '/api/evaluation/shared/not-a-token' })).statusCode).toBe(404);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/evaluation/runs/${runId}/share`,
      headers: { cookie },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await t.app.inject({ url: path })).statusCode).toBe(404);
  });

  it('draws no logo that is not https, a same-origin path or an image data URL', async () => {
    const subaccountId = agency.subaccountIds[0] as string;
    await t.deps.db
      .update(subaccounts)
      .set({ logoUrl: 'javascript:alert(1)', primaryColor: 'red;}body{visibility:hidden' })
      .where(eq(subaccounts.id, subaccountId));
    const runs = await t.app.inject({
      url: '/api/evaluation/runs?limit=1',
      headers: { cookie, 'x-subaccount-id': subaccountId },
    });
    const runId = (runs.json() as { runs: { id: string }[] }).runs[0]?.id;
    const report = await t.app.inject({ url: `/api/evaluation/runs/${runId}/report`, headers: { cookie } });
    expect(report.body).not.toContain('javascript:');
    expect(report.body).not.toContain('visibility:hidden');
    expect(report.body).toContain('--brand:#43c0b8');
  });
});
