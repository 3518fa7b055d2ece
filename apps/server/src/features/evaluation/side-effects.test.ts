import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TAgent, TEnabledToolInput, TMcpServer, TQuestion } from '@switchboard/core';
import { and, count, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { createMailer } from '../../platform/mailer';
import { type SeededAgency, seedAgency } from '../../seed';
import { startPayload, testQuestion } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type McpStub, startMcpStub } from '../../testing/mcp-stub';
import { settleReactions } from '../../testing/reactions';
import { readBody } from '../../testing/read-body';
import { until } from '../../testing/until';
import { usageLogs } from '../billing/schema';
import { findChannel } from '../channels/connections';
import { queueOutbound } from '../channels/outbound';
import { channelMessages } from '../channels/schema';
import { messages, threads } from '../conversations/schema';
import { sandboxAppRecords } from '../integrations/schema';
import { flushMetering } from '../llm/credits';
import { webhookDeliveries } from '../webhooks/schema';
import { evaluationConversations, evaluationRuns } from './schema';

/**
 * An evaluation run is a test: whatever its conversations say or its agent calls, nothing reaches
 * the outside. Checked against a real local webhook receiver, a real MCP server, the sandbox app
 * catalogue, the product's own API called by an HTTP tool, the mailer and the channel queue.
 */

interface Hit {
  type: string;
  data: Record<string, unknown>;
}

/** A webhook endpoint on a real socket that records the events it receives. */
const startReceiver = async () => {
  const hits: Hit[] = [];
  const server: Server = createServer(async (request, response) => {
    hits.push(JSON.parse(await readBody(request)) as Hit);
    response.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let mcp: McpStub;
let agency: SeededAgency;
let cookie: string;
let agent: TAgent;
let apiKey: string;

const sub = () => agency.subaccountIds[0] as string;
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { cookie, 'x-subaccount-id': sub(), ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const ok = async (response: Promise<{ statusCode: number; body: string; json: () => unknown }>) => {
  const answered = await response;
  expect(answered.statusCode, answered.body).toBeLessThan(300);
  return answered.json() as Record<string, unknown>;
};

/** Connects a sandbox catalogue app the way a person does (OAuth through the sandbox's own callback). */
const connectSandboxApp = async (appSlug: string) => {
  const started = await ok(api('POST', '/api/integrations/connections', { appSlug }));
  await t.app.inject({ method: 'GET', url: started.redirectUrl as string, headers: { cookie } });
  const listed = await ok(api('GET', '/api/integrations/connections'));
  const found = (listed.connections as { id: string; appSlug: string; discoveredTools: ToolFound[] }[]).find(
    (row) => row.appSlug === appSlug,
  );
  if (!found) throw new Error(`${appSlug} not connected`);
  return found;
};

type ToolFound = { slug: string; schema: { properties: object; required: string[]; description: string } };

const enable = (
  source: 'composio' | 'mcp',
  ownerId: string,
  tools: ToolFound[],
  slug: string,
  fixedValues: Record<string, unknown> = {},
): TEnabledToolInput => {
  const found = tools.find((tool) => tool.slug === slug);
  if (!found) throw new Error(`${slug} not discovered`);
  return {
    source,
    ownerId,
    slug,
    description: found.schema.description,
    inputSchema: { type: 'object', properties: found.schema.properties as never, required: found.schema.required },
    version: '1',
    fixedValues,
  };
};

const deliveriesSince = async (since: Date) =>
  t.deps.db
    .select({ type: webhookDeliveries.type })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.subaccountId, sub()), gt(webhookDeliveries.createdAt, since)));

const rowsOf = async (table: typeof outbox | typeof sandboxAppRecords | typeof channelMessages) =>
  Number((await t.deps.db.select({ n: count() }).from(table))[0]?.n ?? 0);

const finished = (runId: string) =>
  until(
    async () => (await t.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId)))[0],
    (run) => ['completed', 'failed', 'cancelled'].includes(run?.status ?? ''),
    30_000,
  );

/** The run's agent turns, with the tools each called. */
const transcriptCalls = async (runId: string) => {
  const rows = await t.deps.db.select().from(evaluationConversations).where(eq(evaluationConversations.runId, runId));
  return rows.flatMap((row) => row.transcript.flatMap((line) => line.toolCalls ?? []));
};

/** Waits for the run's own `evaluation.completed` at the receiver: every delivery queued before it has had its turn. */
const runAnnounced = (runId: string) =>
  until(
    async () => receiver.hits.find((hit) => hit.type === 'evaluation.completed' && hit.data.runId === runId),
    Boolean,
    20_000,
  );

beforeAll(async () => {
  t = await startTestApp({
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
    FREE_PLAN_CREDITS: '1000000',
    EVAL_CONCURRENCY: '2',
    JOB_POLL_MS: '20',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
  mcp = await startMcpStub({ writingTool: true });
  agency = await seedAgency(t.deps.db, {
    accountName: 'Side Effects Agency',
    owner: { email: 'owner@side-effects.test', name: 'Owner' },
    subaccounts: ['Clinic'],
    plan: 'sb_growth_month_3000',
  });
  cookie = await t.cookieFor(agency.ownerId);
  await ok(
    api('POST', `/api/connect/${sub()}/webhooks`, {
      url: receiver.url,
      events: [
        'conversation.started',
        'message.received',
        'message.sent',
        'conversation.human_requested',
        'lead.captured',
        'evaluation.completed',
      ],
    }),
  );
  const calendar = await connectSandboxApp('sandbox_calendar');
  const mailbox = await connectSandboxApp('sandbox_email');
  const server = (await ok(
    api('POST', '/api/mcp-servers', { name: 'Helpdesk', url: mcp.url }),
  )) as unknown as TMcpServer;
  apiKey = (await ok(api('POST', '/api/api-keys', { name: 'Partner relay' }))).key as string;
  // Another agent of the account, which the first reaches through the product's own API.
  const relay = await ok(api('POST', '/api/agents', { name: 'Partner relay' }));
  const created = await ok(api('POST', '/api/agents', { name: 'Front desk' }));
  const patched = await ok(
    api('PATCH', `/api/agents/${created.id}`, {
      enabledTools: [
        enable('composio', calendar.id, calendar.discoveredTools, 'SANDBOX_CALENDAR_BOOK_SLOT', { attendee: 'Ada' }),
        enable('composio', calendar.id, calendar.discoveredTools, 'SANDBOX_CALENDAR_LIST_FREE_SLOTS'),
        enable('composio', mailbox.id, mailbox.discoveredTools, 'SANDBOX_EMAIL_SEND_EMAIL', {
          to: 'customer@example.com',
        }),
        enable('mcp', server.id, server.tools, 'CREATE_TICKET'),
        enable('mcp', server.id, server.tools, 'GET_WEATHER'),
      ],
      tools: [
        {
          name: 'notify_partner',
          description: 'Tells the partner agency about a lead',
          method: 'POST',
          url: `${origin}/v1/chat/completions`,
          headers: { authorization: `Bearer ${apiKey}` },
          inputSchema: {
            type: 'object',
            properties: { model: { type: 'string' }, messages: { type: 'array', items: { type: 'object' } } },
            required: [],
          },
          fixedValues: { model: relay.id, messages: [{ role: 'user', content: 'A lead came in' }] },
        },
      ],
    }),
  );
  agent = patched as unknown as TAgent;
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await mcp?.close();
});

const startRun = (questions: TQuestion[]) =>
  ok(
    api(
      'POST',
      '/api/openai/assistants/run/evaluationdata',
      startPayload({
        ai1_config: {},
        assistant_id: agent.id,
        testing_model_for_test_generation: 'offline:offline',
        settings: { evaluationName: 'Side effects', prompt: '', testing_model: 'offline:offline' },
        customQuestions: questions,
      }) as object,
    ),
  );

describe('an evaluation run reaches nothing outside the test', () => {
  it('delivers no conversation webhook, makes no writing tool call, sends no mail and meters only its model calls', async () => {
    await flushMetering();
    const since = new Date();
    const hitsBefore = receiver.hits.length;
    const mailBefore = await rowsOf(outbox);
    const recordsBefore = await rowsOf(sandboxAppRecords);
    const mcpBefore = mcp.calls.length;

    const { runId } = (await startRun([
      testQuestion('human', 'Can I talk to a real person? Call me on +44 7700 900123'),
      testQuestion('book', 'Please book a slot on 2031-03-05 at 09:00', {
        checks: [{ type: 'tool_called', tool: 'SANDBOX_CALENDAR_BOOK_SLOT', args: { date: '2031-03-05' } }],
      }),
      testQuestion('free', 'List the free slots on 2031-03-05'),
      testQuestion('mail', 'Send an email confirming the visit'),
      testQuestion('ticket', 'Create a ticket about the storm'),
      testQuestion('weather', 'What is the weather in Paris?'),
      testQuestion('partner', 'Please notify our partner'),
    ])) as { runId: string };
    expect((await finished(runId))?.status).toBe('completed');
    await runAnnounced(runId);

    // The agency's own notice about the run goes out; nothing its conversations said does.
    expect((await deliveriesSince(since)).map((row) => row.type)).toEqual(['evaluation.completed']);
    expect(receiver.hits.slice(hitsBefore).map((hit) => hit.type)).toEqual(['evaluation.completed']);

    // Read-only tools ran; writing ones are recorded as "would call" with their arguments.
    const calls = await transcriptCalls(runId);
    const byName = (name: string) => calls.find((call) => call.name === name);
    expect(byName('SANDBOX_CALENDAR_LIST_FREE_SLOTS')?.output).toMatchObject({ freeSlots: expect.any(Array) });
    expect(byName('GET_WEATHER')?.output).toMatchObject({ forecast: 'Sunny' });
    expect(mcp.calls.slice(mcpBefore).map((call) => call.name)).toEqual(['get_weather']);
    for (const name of ['SANDBOX_CALENDAR_BOOK_SLOT', 'SANDBOX_EMAIL_SEND_EMAIL', 'CREATE_TICKET', 'notify_partner']) {
      expect(byName(name), name).toMatchObject({ notCalled: true, output: { notCalled: true, tool: name } });
    }
    expect(byName('SANDBOX_CALENDAR_BOOK_SLOT')?.output).toMatchObject({
      arguments: { date: '2031-03-05', time: '09:00', attendee: 'Ada' },
    });
    // The check still sees the call the agent decided on.
    const [book] = await t.deps.db
      .select()
      .from(evaluationConversations)
      .where(and(eq(evaluationConversations.runId, runId), eq(evaluationConversations.questionKey, 'custom:book')));
    expect(book?.checks).toEqual([expect.objectContaining({ type: 'tool_called', passed: true })]);

    // No booking or email in the sandbox apps, no mail.
    expect(await rowsOf(sandboxAppRecords)).toBe(recordsBefore);
    expect(await rowsOf(outbox)).toBe(mailBefore);

    // Metering holds the run's own model calls only (the partner agent was never asked).
    await flushMetering();
    const added = await t.deps.db
      .select({ channel: usageLogs.channel })
      .from(usageLogs)
      .where(and(eq(usageLogs.accountId, agency.accountId), gt(usageLogs.createdAt, since)));
    const runThreads = await t.deps.db.select({ id: threads.id }).from(threads).where(eq(threads.channelRef, runId));
    const [{ n: replies } = { n: 0 }] = await t.deps.db
      .select({ n: count() })
      .from(messages)
      .where(
        and(
          inArray(
            messages.threadId,
            runThreads.map((row) => row.id),
          ),
          eq(messages.role, 'assistant'),
        ),
      );
    expect(added.length).toBe(Number(replies));
    expect(new Set(added.map((row) => row.channel))).toEqual(new Set(['evaluation']));
  });

  it('does not announce again the lead of an inbox conversation added to a test set', async () => {
    const live = await ok(
      api('POST', '/api/openrouter/chat', {
        build_id: agent.id,
        message: 'Hello, you can reach me at real.customer@example.com',
      }),
    );
    // The live conversation announces its lead once, as it should.
    await until(
      async () => receiver.hits.find((hit) => hit.type === 'lead.captured' && hit.data.threadId === live.threadId),
      Boolean,
    );
    // Every event of the live conversation is out (its reactions run after their commit).
    await settleReactions(t.deps);
    await until(
      () => t.deps.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')),
      ([row]) => row?.n === 0,
    );
    const since = new Date();
    const hitsBefore = receiver.hits.length;
    const added = await ok(api('POST', '/api/evaluation/test-cases', { threadId: live.threadId }));
    const run = await ok(
      api('POST', '/api/evaluation/runs/from-template', {
        templateId: added.templateId,
        agentId: agent.id,
        testingModel: 'offline:offline',
      }),
    );
    const runId = run.runId as string;
    expect((await finished(runId))?.status).toBe('completed');
    await runAnnounced(runId);
    expect((await deliveriesSince(since)).map((row) => row.type)).toEqual(['evaluation.completed']);
    const after = receiver.hits.slice(hitsBefore);
    expect(after.map((hit) => hit.type)).toEqual(['evaluation.completed']);
    expect(JSON.stringify(after)).not.toContain('real.customer@example.com');
  });
});

describe('paths that refuse a test themselves', () => {
  it('queues no channel message of a test', async () => {
    const created = await ok(api('POST', '/api/channels', { subaccountId: sub(), type: 'sms', buildId: agent.id }));
    const channel = await findChannel(t.deps.db, created.connectionId as string);
    if (!channel) throw new Error('no channel');
    const before = await rowsOf(channelMessages);
    for (const origin of ['evaluation', 'sandbox'] as const) {
      await expect(
        queueOutbound(t.deps, channel, {
          to: '+14155552671',
          parts: ['Your slot is booked'],
          key: `t:${origin}`,
          origin,
        }),
      ).rejects.toThrow(/cannot send channel messages/);
    }
    expect(await rowsOf(channelMessages)).toBe(before);
  });

  it('sends and stores no mail of a test', async () => {
    const mailer = createMailer(t.deps.db, t.deps.env, t.deps.log);
    const before = await rowsOf(outbox);
    await expect(
      mailer.send({
        to: 'customer@example.com',
        subject: 'Booked',
        text: 'Booked',
        html: '<p>Booked</p>',
        origin: 'evaluation',
      }),
    ).rejects.toThrow(/cannot send mail/);
    expect(await rowsOf(outbox)).toBe(before);
  });
});
