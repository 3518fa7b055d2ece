import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startPayload, testQuestion } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { runAppTool } from '../agents/app-tools';
import { evaluationConversations, evaluationRuns } from '../evaluation/schema';

/** The done event of a streamed test-chat answer. */
const doneOf = (body: string) => {
  const block = body.split('\n\n').find((part) => part.startsWith('event: done'));
  return JSON.parse(
    block
      ?.split('\n')
      .find((line) => line.startsWith('data: '))
      ?.slice(6) ?? '{}',
  );
};

describe('connected apps (sandbox catalogue)', () => {
  let t: TestApp;
  let cookie: string;
  let strangerCookie: string;
  let viewerCookie: string;
  let subaccountId: string;
  let strangerSubaccountId: string;
  const headers = () => ({ cookie, 'x-subaccount-id': subaccountId });
  const strangerHeaders = () => ({ cookie: strangerCookie, 'x-subaccount-id': strangerSubaccountId });

  beforeAll(async () => {
    t = await startTestApp({ JOB_POLL_MS: '50' });
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Apps Agency',
      owner: { email: 'owner@apps.test', name: 'Owner' },
      subaccounts: ['Main'],
      plan: 'sb_growth_month_3000',
      users: [{ email: 'viewer@apps.test', name: 'Viewer', role: 'viewer' }],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
    viewerCookie = await t.cookieFor(agency.userIds['viewer@apps.test'] ?? '');
    const other = await seedAgency(t.deps.db, {
      accountName: 'Other Apps',
      owner: { email: 'owner@other-apps.test', name: 'Other' },
      subaccounts: ['Elsewhere'],
    });
    strangerSubaccountId = other.subaccountIds[0] ?? '';
    strangerCookie = await t.cookieFor(other.ownerId);
  });
  afterAll(() => t.close());

  it('connects the sandbox calendar by OAuth, books a slot through an agent and shows the booking', async () => {
    const apps = await t.app.inject({ method: 'GET', url: '/api/integrations/apps', headers: headers() });
    expect(apps.json()).toMatchObject({ sandbox: true });
    expect(apps.json().apps.map((app: { slug: string }) => app.slug)).toEqual([
      'sandbox_calendar',
      'sandbox_crm',
      'sandbox_email',
    ]);

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'sandbox_calendar' },
    });
    expect(started.statusCode).toBe(200);
    const { connection, redirectUrl } = started.json();
    expect(connection).toMatchObject({ status: 'pending_connection', sandbox: true, appSlug: 'sandbox_calendar' });
    expect(redirectUrl).toMatch(/^\/api\/integrations\/oauth\/callback\?state=/);

    const pending = await t.app.inject({ method: 'GET', url: '/api/integrations/status', headers: headers() });
    expect(pending.json()).toEqual({
      integrations: { sandbox_calendar: false },
      entries: { [`connection:${connection.id}`]: 'pending_connection', 'trigger:sandbox_calendar': 'not_connected' },
    });

    // Another tenant cannot finish this sub-account's OAuth.
    const foreign = await t.app.inject({ method: 'GET', url: redirectUrl, headers: strangerHeaders() });
    expect(foreign.statusCode).toBe(404);
    const callback = await t.app.inject({ method: 'GET', url: redirectUrl, headers: { cookie } });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/integrations?connected=sandbox_calendar');
    const status = await t.app.inject({ method: 'GET', url: '/api/integrations/status', headers: headers() });
    expect(status.json().integrations).toEqual({ sandbox_calendar: true });
    expect(status.json().entries['trigger:sandbox_calendar']).toBe('connected');

    const agent = (
      await t.app.inject({ method: 'POST', url: '/api/agents', headers: headers(), payload: { name: 'Booker' } })
    ).json();
    const groups = await t.app.inject({ method: 'GET', url: `/api/agents/${agent.id}/app-tools`, headers: headers() });
    const group = groups.json().groups.find((item: { ownerId: string }) => item.ownerId === connection.id);
    expect(group).toMatchObject({ source: 'composio', status: 'connected', sandbox: true });
    const book = group.tools.find((tool: { slug: string }) => tool.slug === 'SANDBOX_CALENDAR_BOOK_SLOT');
    expect(book.schema.required).toEqual(['date', 'time']);

    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/api/agents/${agent.id}`,
      headers: headers(),
      payload: {
        enabledTools: [
          {
            source: 'composio',
            ownerId: connection.id,
            slug: book.slug,
            description: book.schema.description,
            inputSchema: book.schema,
            version: book.version,
            fixedValues: { attendee: 'Ada' },
          },
        ],
      },
    });
    expect(enabled.statusCode).toBe(200);

    const chat = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${agent.id}/chat`,
      headers: headers(),
      payload: { message: 'Please book a slot on 2031-03-03 at 10:00' },
    });
    const done = doneOf(chat.body);
    expect(done.toolCalls[0]).toMatchObject({
      name: 'SANDBOX_CALENDAR_BOOK_SLOT',
      input: { date: '2031-03-03', time: '10:00' },
      output: { booked: true, attendee: 'Ada' },
    });

    const records = await t.app.inject({ method: 'GET', url: '/api/integrations/sandbox/records', headers: headers() });
    expect(records.json().records[0]).toMatchObject({
      kind: 'booking',
      connectionId: connection.id,
      data: { date: '2031-03-03', time: '10:00', attendee: 'Ada' },
    });

    // The same slot again: the app's refusal reaches the model as data, with the field.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${agent.id}/chat`,
      headers: headers(),
      payload: { message: 'Please book a slot on 2031-03-03 at 10:00' },
    });
    expect(doneOf(again.body).toolCalls[0].output).toEqual({
      error: {
        code: 'TOOL_EXECUTION_FAILED',
        message: '2031-03-03 at 10:00 is already booked; pick another slot',
        field: 'time',
      },
    });
    const stranger = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/sandbox/records',
      headers: strangerHeaders(),
    });
    expect(stranger.json().records).toEqual([]);

    // An evaluation asks the agent to book: its check asserts the call and its arguments, and the
    // stored transcript shows the call as "would call": a test run books nothing, even in the sandbox.
    const evaluation = await t.app.inject({
      method: 'POST',
      url: '/api/openai/assistants/run/evaluationdata',
      headers: headers(),
      payload: startPayload({
        ai1_config: {},
        assistant_id: agent.id,
        testing_model_for_test_generation: 'offline:offline',
        settings: { evaluationName: 'Booking', prompt: '', testing_model: 'offline:offline' },
        customQuestions: [
          testQuestion('book', 'Please book a slot on 2031-03-05 at 09:00', {
            checks: [{ type: 'tool_called', tool: 'SANDBOX_CALENDAR_BOOK_SLOT', args: { date: '2031-03-05' } }],
          }),
        ],
      }) as object,
    });
    expect(evaluation.statusCode).toBe(202);
    const { runId } = evaluation.json() as { runId: string };
    for (let i = 0; ; i += 1) {
      const [run] = await t.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId));
      if (run && ['completed', 'failed', 'cancelled'].includes(run.status)) break;
      if (i > 400) throw new Error('the evaluation did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [row] = await t.deps.db
      .select()
      .from(evaluationConversations)
      .where(eq(evaluationConversations.runId, runId));
    expect(row?.checks).toEqual([expect.objectContaining({ type: 'tool_called', passed: true })]);
    expect(row?.transcript.at(-1)?.toolCalls?.[0]).toMatchObject({
      name: 'SANDBOX_CALENDAR_BOOK_SLOT',
      input: { date: '2031-03-05', time: '09:00' },
      notCalled: true,
      output: { notCalled: true, arguments: { date: '2031-03-05', time: '09:00', attendee: 'Ada' } },
    });
    const after = await t.app.inject({ method: 'GET', url: '/api/integrations/sandbox/records', headers: headers() });
    expect(JSON.stringify(after.json().records)).not.toContain('2031-03-05');
  });

  it('refuses arguments that do not fit the schema before any call', async () => {
    const output = await runAppTool(t.deps, {
      subaccountId,
      origin: 'live',
      tool: {
        source: 'composio',
        ownerId: 'icn_missing',
        slug: 'SANDBOX_CALENDAR_BOOK_SLOT',
        description: '',
        inputSchema: {
          type: 'object',
          properties: { date: { type: 'string' }, time: { type: 'string' } },
          required: ['date', 'time'],
        },
        version: '1',
        fixedValues: {},
      },
      input: { date: '2031-03-03' },
    });
    expect(output).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'time is required', field: 'time' } });
  });

  it('connects an API-key app only with a key it accepts', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'sandbox_crm' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'apiKey' });
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'sandbox_crm', apiKey: 'short' },
    });
    expect(short.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'apiKey' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'sandbox_crm', apiKey: 'sandbox-key-123' },
    });
    expect(ok.json()).toMatchObject({ redirectUrl: null, connection: { status: 'connected', authKind: 'api_key' } });
    expect(ok.json().connection.discoveredTools.map((tool: { slug: string }) => tool.slug)).toEqual([
      'SANDBOX_CRM_CREATE_CONTACT',
      'SANDBOX_CRM_FIND_CONTACT',
    ]);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'nope' },
    });
    expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'appSlug' });
  });

  it("answers another tenant's connection and agent ids with 404", async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/connections', headers: headers() });
    const id = list.json().connections[0].id as string;
    const agents = await t.app.inject({ method: 'GET', url: '/api/agents', headers: headers() });
    const agentId = agents.json().agents?.[0]?.id ?? agents.json().items?.[0]?.id;
    for (const [method, url] of [
      ['DELETE', `/api/integrations/connections/${id}`],
      ['POST', `/api/integrations/connections/${id}/rediscover`],
      ['GET', `/api/agents/${agentId}/app-tools`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: strangerHeaders() });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/integrations/connections',
      headers: strangerHeaders(),
    });
    expect(theirs.json().connections).toEqual([]);

    // Their agent cannot enable a tool of our connection.
    const theirAgent = (
      await t.app.inject({
        method: 'POST',
        url: '/api/agents',
        headers: strangerHeaders(),
        payload: { name: 'Theirs' },
      })
    ).json();
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/agents/${theirAgent.id}`,
      headers: strangerHeaders(),
      payload: { enabledTools: [{ source: 'composio', ownerId: id, slug: 'SANDBOX_CRM_FIND_CONTACT' }] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'enabledTools.0.ownerId' });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/integrations/connections/${id}`,
      headers: headers(),
    });
    expect(removed.statusCode).toBe(204);
  });
  it('names on Launch an agent whose enabled app tool is not connected', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'sandbox_email' },
    });
    const connection = started.json().connection;
    const agent = (
      await t.app.inject({
        method: 'POST',
        url: '/api/agents',
        headers: headers(),
        payload: {
          name: 'Mailer',
          enabledTools: [{ source: 'composio', ownerId: connection.id, slug: 'SANDBOX_EMAIL_SEND_EMAIL' }],
        },
      })
    ).json();
    const launch = await t.app.inject({
      method: 'GET',
      url: `/api/launch?subaccountId=${subaccountId}`,
      headers: { cookie },
    });
    expect(launch.json().subaccounts[0].appToolIssues).toContainEqual({
      agentId: agent.id,
      agentName: 'Mailer',
      source: 'composio',
      ownerId: connection.id,
      ownerName: 'Email',
      sandbox: true,
      status: 'pending_connection',
      tools: ['SANDBOX_EMAIL_SEND_EMAIL'],
    });
    const chat = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${agent.id}/chat`,
      headers: headers(),
      payload: { message: 'Send an email to the team' },
    });
    expect(doneOf(chat.body).toolCalls[0].output.error.code).toBe('COMPOSIO_AUTH_REQUIRED');
  });
  it('lets a viewer read the connections but not connect or disconnect', async () => {
    const viewer = { cookie: viewerCookie, 'x-subaccount-id': subaccountId };
    const read = await t.app.inject({ method: 'GET', url: '/api/integrations/status', headers: viewer });
    expect(read.statusCode).toBe(200);
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: viewer,
      payload: { appSlug: 'sandbox_calendar' },
    });
    expect(connect.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/integrations/connections', headers: viewer });
    const id = list.json().connections[0].id as string;
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/api/integrations/connections/${id}`,
      headers: viewer,
    });
    expect(remove.statusCode).toBe(403);
  });
});
