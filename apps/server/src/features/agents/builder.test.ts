import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, waitForJob } from '../../platform/jobs';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { usageLogs } from '../billing/schema';
import { flushMetering } from '../llm/credits';
import { AGENT_BUILD_JOB } from './builder';

const IDEA =
  'A friendly front-desk assistant for Bright Smile Dental in Leeds that answers questions about treatments, books check-ups and handles emergencies';

describe('the agent builder with a chosen model, on the free plan', () => {
  let stub: OpenAiStub;
  let t: TestApp;
  let cookie: string;
  let accountId: string;
  let subaccountId: string;
  const headers = () => ({ cookie, 'x-subaccount-id': subaccountId });
  const chatCalls = () => stub.requests.filter((request) => request.path.endsWith('/chat/completions')).length;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    t = await startTestApp({ OPENAI_BASE_URL: stub.url });
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Builder Agency',
      owner: { email: 'owner@builder.test', name: 'Owner' },
      subaccounts: ['Only Client'],
    });
    accountId = agency.accountId;
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/connect/${subaccountId}/providers/openai`,
      headers: { cookie },
      payload: { apiKey: 'sk-test-builder-1234' },
    });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('refuses a model the account has no key for, and half a choice', async () => {
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/agent/build',
      headers: headers(),
      payload: { idea: IDEA, provider: 'anthropic', model: 'claude-sonnet' },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.code).toBe('VALIDATION_ERROR');
    const half = await t.app.inject({
      method: 'POST',
      url: '/api/agent/build',
      headers: headers(),
      payload: { idea: IDEA, model: 'stub-small' },
    });
    expect(half.statusCode).toBe(422);
    expect(chatCalls()).toBe(0);
  });

  it('calls the chosen model and, when its answer is no draft, keeps the labelled offline draft', async () => {
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/agent/build',
      headers: headers(),
      payload: { idea: IDEA, provider: 'openai', model: 'stub-small' },
    });
    expect(start.statusCode).toBe(202);
    const job = await waitForJob(t.deps, start.json().jobId);
    expect(job?.status).toBe('succeeded');
    // The stub answers in prose, not the JSON draft asked for.
    expect(stub.requests.filter((request) => (request.body as { model?: string }).model === 'stub-small')).toHaveLength(
      1,
    );
    const data = (job?.result as { data: { agentId: string; offline: boolean; draftSource: string } } | undefined)
      ?.data as { agentId: string };
    expect(data).toMatchObject({ offline: true, draftSource: 'offline-fallback' });
    const agent = (await t.app.inject({ url: `/api/agents/${data.agentId}`, headers: { cookie } })).json();
    expect(agent).toMatchObject({
      name: 'Bright Smile Dental Assistant',
      provider: 'openai',
      model: 'stub-small',
      suggestedResponses: [
        'Can you tell me about your treatments?',
        'Can I book a check-up?',
        'Can you help me with an emergency?',
      ],
    });
    expect(agent.systemPrompt).not.toContain(IDEA);
  });

  it('checks the plan before calling the model: a refused build spends nothing', async () => {
    await flushMetering();
    const callsBefore = chatCalls();
    const usageBefore = (await t.deps.db.select().from(usageLogs)).length;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/agent/build',
      headers: headers(),
      payload: { idea: IDEA, provider: 'openai', model: 'stub-small' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
    // A job that was queued before the limit filled is refused by the worker before the model call too.
    const jobId = await enqueueJob(t.deps, {
      type: AGENT_BUILD_JOB,
      payload: { idea: IDEA, provider: 'openai', model: 'stub-small' },
      accountId,
      subaccountId,
    });
    const job = await waitForJob(t.deps, jobId);
    expect(job?.status).toBe('failed');
    await flushMetering();
    expect(chatCalls()).toBe(callsBefore);
    expect((await t.deps.db.select().from(usageLogs)).length).toBe(usageBefore);
  });
});
