import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob } from '../../platform/jobs';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

describe('agents API', () => {
  let t: TestApp;
  let cookie: string;
  let viewerCookie: string;
  let strangerCookie: string;
  let subaccountId: string;
  const headers = () => ({ cookie, 'x-subaccount-id': subaccountId });

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Agents Agency',
      owner: { email: 'owner@agents.test', name: 'Owner' },
      subaccounts: ['Main'],
      plan: 'sb_growth_month_3000',
      users: [{ email: 'viewer@agents.test', name: 'Viewer', role: 'viewer' }],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
    viewerCookie = await t.cookieFor(agency.userIds['viewer@agents.test'] ?? '');
    const other = await seedAgency(t.deps.db, {
      accountName: 'Other',
      owner: { email: 'owner@other.test', name: 'Other' },
      subaccounts: ['Elsewhere'],
    });
    strangerCookie = await t.cookieFor(other.ownerId);
  });
  afterAll(() => t.close());

  it('creates an agent with the spec defaults, lists, edits, duplicates and deletes it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: headers(),
      payload: { name: 'Sol' },
    });
    expect(created.statusCode).toBe(201);
    const agent = created.json();
    expect(agent).toMatchObject({
      name: 'Sol',
      type: 'chat_completion',
      provider: 'offline',
      temperature: 1,
      maxTokens: 2048,
      topP: 1,
      frequencyPenalty: 0,
      presencePenalty: 0,
      stopSequences: [],
    });
    const builds = await t.app.inject({ method: 'GET', url: '/api/builds', headers: headers() });
    expect(builds.json().builds[0]).toMatchObject({ buildId: agent.id, assistantId: agent.id, aiName: 'Sol' });
    const build = await t.app.inject({ method: 'GET', url: `/api/builds/${agent.id}`, headers: { cookie } });
    expect(build.json().assistantId).toBe(agent.id);

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/agents/${agent.id}`,
      headers: { cookie },
      payload: { temperature: 0.3, stopSequences: ['END'] },
    });
    expect(patched.json()).toMatchObject({ temperature: 0.3, stopSequences: ['END'] });

    const copy = await t.app.inject({ method: 'POST', url: `/api/agents/${agent.id}/duplicate`, headers: { cookie } });
    expect(copy.json()).toMatchObject({ name: 'Sol (copy)', temperature: 0.3 });

    const gone = await t.app.inject({ method: 'DELETE', url: `/api/agents/${copy.json().id}`, headers: { cookie } });
    expect(gone.statusCode).toBe(204);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/subaccounts/${subaccountId}/agents`,
      headers: { cookie },
    });
    expect(list.json().agents.map((a: { id: string }) => a.id)).toEqual([agent.id]);

    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/agents/${agent.id}`,
      headers: { cookie: strangerCookie },
    });
    expect(foreign.statusCode).toBe(404);
    const viewerEdit = await t.app.inject({
      method: 'PATCH',
      url: `/api/agents/${agent.id}`,
      headers: { cookie: viewerCookie },
      payload: { name: 'x' },
    });
    expect(viewerEdit.statusCode).toBe(403);
  });

  it.each([
    [{ name: 'A', temperature: 3 }, 'temperature'],
    [{ name: 'A', temperature: 'hot' }, 'temperature'],
    [{ name: 'A', maxTokens: 1.5 }, 'maxTokens'],
    [{ name: 'A', topP: -1 }, 'topP'],
    [{ name: 'A', frequencyPenalty: 5 }, 'frequencyPenalty'],
    [{ name: 'A', presencePenalty: -3 }, 'presencePenalty'],
    [{ name: 'A', stopSequences: ['a', 'b', 'c', 'd', 'e'] }, 'stopSequences'],
    [{ name: '' }, 'name'],
    [{ name: 'A', provider: 'nope' }, 'provider'],
    [{ name: 'A', tools: [{ name: '1bad', url: 'https://example.com' }] }, 'tools.0.name'],
    [{ name: 'A', tools: [{ name: 'lookup', url: 'ftp://example.com' }] }, 'tools.0.url'],
  ])('refuses %j with a field error on %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/agents', headers: headers(), payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.field).toContain(field);
  });

  it('checks manual tool values against the schema (timezone rule, min/max)', async () => {
    const tool = (fixedValues: Record<string, unknown>) => ({
      name: 'A',
      tools: [
        {
          name: 'book',
          url: 'https://example.com/book',
          inputSchema: {
            type: 'object',
            properties: { user_timezone: { type: 'string' }, guests: { type: 'integer', minimum: 1, maximum: 8 } },
            required: [],
          },
          fixedValues,
        },
      ],
    });
    const badZone = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: headers(),
      payload: tool({ user_timezone: 'UTC+15' }),
    });
    expect(badZone.json().error).toMatchObject({
      message: 'Timezone offset must be between UTC-12 and UTC+14',
      field: 'tools.0.fixedValues.user_timezone',
    });
    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: headers(),
      payload: tool({ guests: 9 }),
    });
    expect(tooMany.json().error.field).toBe('tools.0.fixedValues.guests');
    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: headers(),
      payload: tool({ user_timezone: 'UTC+5:30', guests: 2 }),
    });
    expect(fine.statusCode).toBe(201);
  });

  it('builds an agent from an idea through the builder job', async () => {
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/agent/build',
      headers: headers(),
      payload: { idea: 'A friendly receptionist for a dental clinic that books appointments' },
    });
    expect(start.statusCode).toBe(202);
    const { jobId } = start.json();
    await waitForJob(t.deps, jobId);
    const polled = await t.app.inject({ method: 'GET', url: `/api/agent/jobs/${jobId}`, headers: { cookie } });
    expect(polled.headers['cache-control']).toBe('no-store');
    const body = polled.json();
    expect(body.status).toBe('succeeded');
    const agent = await t.app.inject({
      method: 'GET',
      url: `/api/agents/${body.result.data.agentId}`,
      headers: { cookie },
    });
    expect(agent.json().name).toBe('Dental Clinic Receptionist');
    expect(agent.json().suggestedResponses).toEqual([
      'Can I book an appointment?',
      'What are your opening hours?',
      'How much does it cost?',
    ]);
    expect(agent.json().firstMessage).toBe(
      "Hello, and welcome! I'm the receptionist here. I can book appointments. How can I help you today?",
    );
    expect(body.result.data).toMatchObject({ offline: true, draftSource: 'offline' });

    const missing = await t.app.inject({ method: 'GET', url: '/api/agent/jobs/job_nothing', headers: { cookie } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('BUILDER_JOB_NOT_FOUND');
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/agent/jobs/${jobId}`,
      headers: { cookie: strangerCookie },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('streams a test chat reply as server-sent events', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/agents',
      headers: headers(),
      payload: { name: 'Greeter', firstMessage: 'Hello from Greeter!' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${created.json().id}/chat`,
      headers: { cookie },
      payload: { message: 'hi' },
    });
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.body).toContain('event: delta');
    const done = res.body.split('\n\n').find((block) => block.startsWith('event: done'));
    const data = JSON.parse(done?.split('data: ')[1] ?? '{}');
    expect(data).toMatchObject({ message: 'Hello from Greeter!', offline: true });
    const thread = await t.app.inject({ method: 'GET', url: `/api/threads/${data.threadId}`, headers: { cookie } });
    expect(thread.json().messages).toHaveLength(2);

    const legacy = await t.app.inject({
      method: 'POST',
      url: '/api/openai/run-prompt',
      headers: { cookie },
      payload: { assistantId: created.json().id, message: 'hello', threadId: data.threadId },
    });
    expect(legacy.json()).toMatchObject({ message: 'Hello from Greeter!', threadId: data.threadId });
    const router = await t.app.inject({
      method: 'POST',
      url: '/api/openrouter/chat',
      headers: { cookie },
      payload: { build_id: created.json().id, message: 'hello' },
    });
    expect(router.json()).toMatchObject({ message: 'Hello from Greeter!', response: 'Hello from Greeter!' });
  });
});
