import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TAgent, TEnabledToolInput, TMcpServer } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type McpStub, startMcpStub } from '../../testing/mcp-stub';
import { discoverAppTools, runAppTool } from '../agents/app-tools';
import { seedAgent } from '../agents/seed';
import { replyAsAgent } from '../conversations/reply';
import { threads } from '../conversations/schema';

let t: TestApp;
let agency: SeededAgency;
let rival: SeededAgency;
let cookie: string;
let rivalCookie: string;
let stub: McpStub;
let locked: McpStub;
let n = 0;

const seed = async (label: string) => {
  n += 1;
  return seedAgency(t.deps.db, {
    accountName: `${label} ${n}`,
    owner: { email: `${label.toLowerCase()}${n}-${Date.now()}@example.test`, name: `${label} Owner` },
    subaccounts: [`${label} Client`],
  });
};

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, as: string, sub: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: as, 'x-subaccount-id': sub },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const ours = () => agency.subaccountIds[0] as string;
const theirs = () => rival.subaccountIds[0] as string;

const addServer = async (body: Record<string, unknown>) => {
  const response = await api('POST', '/api/mcp-servers', cookie, ours(), body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as TMcpServer;
};

const enabledFrom = (server: TMcpServer, slug: string): TEnabledToolInput => {
  const found = server.tools.find((tool) => tool.slug === slug);
  if (!found) throw new Error(`${slug} not discovered`);
  return {
    source: 'mcp',
    ownerId: server.id,
    slug: found.slug,
    description: found.schema.description,
    inputSchema: { type: 'object', properties: found.schema.properties as never, required: found.schema.required },
    version: found.version,
  };
};

const createAgent = async (name: string, enabledTools: TEnabledToolInput[] = []) => {
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: ours(), name });
  const patched = await api('PATCH', `/api/agents/${agent.id}`, cookie, ours(), { enabledTools });
  expect(patched.statusCode, patched.body).toBe(200);
  return patched.json() as TAgent;
};

beforeAll(async () => {
  t = await startTestApp({ PRIVATE_URL_ALLOWLIST: '127.0.0.1' });
  stub = await startMcpStub();
  locked = await startMcpStub({ token: 'letmein-1234' });
  agency = await seed('Mcp');
  rival = await seed('Rival');
  cookie = await t.cookieFor(agency.ownerId);
  rivalCookie = await t.cookieFor(rival.ownerId);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
  await locked?.close();
});

describe('MCP servers as tool sources', () => {
  it('adds a server, discovers its tools with the SDK client and keeps header values secret', async () => {
    const server = await addServer({
      name: 'Weather',
      url: stub.url,
      headers: [{ name: 'X-Api-Key', value: 'secret-value-9876' }],
    });
    expect(server.status).toBe('connected');
    expect(server.lastError).toBeNull();
    expect(server.tools.map((tool) => tool.slug).sort()).toEqual(['ALWAYS_FAILS', 'GET_WEATHER']);
    const weather = server.tools.find((tool) => tool.slug === 'GET_WEATHER');
    expect(weather?.source).toBe('mcp');
    expect(weather?.schema).toMatchObject({ required: ['city'], description: 'Current weather of a city' });
    expect(server.headers).toEqual([{ name: 'X-Api-Key', valueTail: '9876' }]);
    const list = await api('GET', '/api/mcp-servers', cookie, ours());
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('secret-value');
    expect((list.json().servers as TMcpServer[]).map((one) => one.id)).toContain(server.id);

    const groups = await discoverAppTools(t.deps, ours());
    expect(groups.find((group) => group.ownerId === server.id)).toMatchObject({
      source: 'mcp',
      ownerName: 'Weather',
      status: 'connected',
    });
  });

  it('calls an enabled tool with good arguments, and refuses bad ones before any call', async () => {
    const server = await addServer({ name: 'Weather calls', url: stub.url });
    const tool = enabledFrom(server, 'GET_WEATHER');
    const agent = await createAgent('Weather agent', [tool]);
    const enabled = agent.enabledTools[0];
    if (!enabled) throw new Error('not enabled');
    const before = stub.calls.length;

    const good = await runAppTool(t.deps, {
      subaccountId: ours(),
      tool: enabled,
      input: { city: 'Paris' },
      origin: 'live',
    });
    expect(good).toEqual({ city: 'Paris', forecast: 'Sunny', celsius: 21 });
    expect(stub.calls.slice(before)).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);

    const bad = await runAppTool(t.deps, { subaccountId: ours(), tool: enabled, input: {}, origin: 'live' });
    expect(bad).toMatchObject({ error: { code: 'TOOL_EXECUTION_FAILED', field: 'city' } });
    expect(stub.calls.length).toBe(before + 1);
  });

  it('lets the agent call the tool in a chat turn (offline model) and shows it in the transcript', async () => {
    const server = await addServer({ name: 'Weather chat', url: stub.url });
    const agent = await createAgent('Forecaster', [enabledFrom(server, 'GET_WEATHER')]);
    const result = await replyAsAgent(t.deps, {
      agentId: agent.id,
      accountId: agency.accountId,
      subaccountId: ours(),
      message: 'What is the weather today?',
      channel: 'test',
    });
    expect(result.toolCalls[0]).toMatchObject({ name: 'GET_WEATHER', output: { forecast: 'Sunny' } });
    expect(result.message).toContain('Sunny');
  });

  it('records a writing tool as "would call" in a test chat and calls it in a live conversation', async () => {
    const helpdesk = await startMcpStub({ writingTool: true });
    try {
      const server = await addServer({ name: 'Helpdesk', url: helpdesk.url });
      const agent = await createAgent('Ticket agent', [enabledFrom(server, 'CREATE_TICKET')]);
      const turn = (channel: 'test' | 'api') =>
        replyAsAgent(t.deps, {
          agentId: agent.id,
          accountId: agency.accountId,
          subaccountId: ours(),
          message: 'Create a ticket about the storm',
          channel,
        });
      const tried = await turn('test');
      expect(tried.toolCalls[0]).toMatchObject({
        name: 'CREATE_TICKET',
        notCalled: true,
        output: { notCalled: true, tool: 'CREATE_TICKET', arguments: { subject: expect.any(String) } },
      });
      expect(helpdesk.calls).toEqual([]);
      const live = await turn('api');
      expect(live.toolCalls[0]).toMatchObject({ name: 'CREATE_TICKET', output: { ticket: 'T-1' } });
      expect(live.toolCalls[0]?.notCalled).toBeUndefined();
      expect(helpdesk.calls.map((call) => call.name)).toEqual(['create_ticket']);

      // A tool whose server says nothing of what it does counts as writing.
      const unknown = await createAgent('Flaky tester', [enabledFrom(server, 'ALWAYS_FAILS')]);
      const enabled = unknown.enabledTools[0];
      if (!enabled) throw new Error('not enabled');
      const recorded = await runAppTool(t.deps, { subaccountId: ours(), tool: enabled, input: {}, origin: 'sandbox' });
      expect(recorded).toMatchObject({ notCalled: true, tool: 'ALWAYS_FAILS' });
      expect(helpdesk.calls.map((call) => call.name)).toEqual(['create_ticket']);
    } finally {
      await helpdesk.close();
    }
  });

  it('no longer shows "Connected" once a call finds the server down', async () => {
    const flaky = await startMcpStub();
    const server = await addServer({ name: 'Flaky', url: flaky.url });
    expect(server.status).toBe('connected');
    const agent = await createAgent('Flaky agent', [enabledFrom(server, 'GET_WEATHER')]);
    const enabled = agent.enabledTools[0];
    if (!enabled) throw new Error('not enabled');
    await flaky.close();
    const down = await runAppTool(t.deps, {
      subaccountId: ours(),
      tool: enabled,
      input: { city: 'Oslo' },
      origin: 'live',
    });
    expect(down).toMatchObject({ error: { code: 'TOOL_EXECUTION_FAILED' } });
    const list = await api('GET', '/api/mcp-servers', cookie, ours());
    const shown = (list.json().servers as TMcpServer[]).find((one) => one.id === server.id);
    expect(shown?.status).toBe('failed');
    expect(shown?.lastError).toContain('could not be reached');
    const groups = await discoverAppTools(t.deps, ours());
    expect(groups.find((group) => group.ownerId === server.id)?.status).toBe('failed');
  });

  it('turns a tool result marked isError into TOOL_EXECUTION_FAILED with its message', async () => {
    const server = await addServer({ name: 'Flaky', url: stub.url });
    const agent = await createAgent('Flaky agent', [enabledFrom(server, 'ALWAYS_FAILS')]);
    const enabled = agent.enabledTools[0];
    if (!enabled) throw new Error('not enabled');
    const result = await runAppTool(t.deps, { subaccountId: ours(), tool: enabled, input: {}, origin: 'live' });
    expect(result).toEqual({
      error: { code: 'TOOL_EXECUTION_FAILED', message: 'The upstream weather service is down' },
    });
  });

  it('marks a server that answers 401 as auth_required, and connects once the header is right', async () => {
    const server = await addServer({
      name: 'Locked',
      url: locked.url,
      headers: [{ name: 'Authorization', value: 'Bearer wrong' }],
    });
    expect(server.status).toBe('auth_required');
    expect(server.lastError).toContain('401');
    expect(server.tools).toEqual([]);
    const fixed = await api('PATCH', `/api/mcp-servers/${server.id}`, cookie, ours(), {
      headers: [{ name: 'Authorization', value: 'Bearer letmein-1234' }],
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({
      status: 'connected',
      headers: [{ name: 'Authorization', valueTail: '1234' }],
    });
    // A header sent without a value keeps the stored one.
    const renamed = await api('PATCH', `/api/mcp-servers/${server.id}`, cookie, ours(), {
      name: 'Locked (fixed)',
      headers: [{ name: 'Authorization' }],
    });
    expect(renamed.json()).toMatchObject({ name: 'Locked (fixed)', status: 'connected' });
    const again = await api('POST', `/api/mcp-servers/${server.id}/rediscover`, cookie, ours());
    expect(again.statusCode).toBe(200);
    expect(again.json().tools).toHaveLength(2);
  });

  it('refuses a private address that PRIVATE_URL_ALLOWLIST does not list (400, field url)', async () => {
    const response = await api('POST', '/api/mcp-servers', cookie, ours(), {
      name: 'Inside',
      url: 'http://192.168.1.20:8080/mcp',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'url' });
    const metadata = await api('POST', '/api/mcp-servers', cookie, ours(), {
      name: 'Metadata',
      url: 'http://169.254.169.254/mcp',
    });
    expect(metadata.statusCode).toBe(400);
  });

  it('refuses even the local test server when PRIVATE_URL_ALLOWLIST is empty', async () => {
    const strict = await startTestApp();
    try {
      const owner = await seedAgency(strict.deps.db, {
        accountName: 'Strict',
        owner: { email: `strict-${Date.now()}@example.test`, name: 'Strict Owner' },
        subaccounts: ['Strict Client'],
      });
      const response = await strict.app.inject({
        method: 'POST',
        url: '/api/mcp-servers',
        headers: { cookie: await strict.cookieFor(owner.ownerId), 'x-subaccount-id': owner.subaccountIds[0] as string },
        payload: { name: 'Local', url: stub.url },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'url' });
    } finally {
      await strict.close();
    }
  });

  it("answers 404 for another tenant's server and refuses its tools on the rival's agents", async () => {
    const server = await addServer({ name: 'Private weather', url: stub.url });
    for (const [method, url, body] of [
      ['PATCH', `/api/mcp-servers/${server.id}`, { name: 'Taken' }],
      ['DELETE', `/api/mcp-servers/${server.id}`, undefined],
      ['POST', `/api/mcp-servers/${server.id}/rediscover`, undefined],
    ] as const) {
      const response = await api(method, url, rivalCookie, theirs(), body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const rivalList = await api('GET', '/api/mcp-servers', rivalCookie, theirs());
    expect(rivalList.json().servers).toEqual([]);
    const rivalAgent = await seedAgent(t.deps.db, { accountId: rival.accountId, subaccountId: theirs() });
    const stolen = await api('PATCH', `/api/agents/${rivalAgent.id}`, rivalCookie, theirs(), {
      enabledTools: [enabledFrom(server, 'GET_WEATHER')],
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().error.field).toBe('enabledTools.0.ownerId');

    const deleted = await api('DELETE', `/api/mcp-servers/${server.id}`, cookie, ours());
    expect(deleted.statusCode).toBe(204);
    const gone = await api('POST', `/api/mcp-servers/${server.id}/rediscover`, cookie, ours());
    expect(gone.statusCode).toBe(404);
  });
});

describe('Switchboard as an MCP server (/mcp)', () => {
  let endpoint: URL;
  let key: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = new URL(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/mcp`);
    const created = await api('POST', '/api/api-keys', cookie, ours(), { name: 'MCP' });
    expect(created.statusCode).toBe(201);
    key = created.json().key;
  });

  const connect = async (bearer: string) => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    });
    await client.connect(transport);
    return client;
  };

  it("lists the key's agents as tools and answers through the agent (offline model)", async () => {
    const agent = await createAgent('Front Desk: Hours & Prices');
    const client = await connect(key);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((one) => one.title === agent.name);
      expect(tool?.name).toBe('front_desk_hours_prices');
      expect(tool?.inputSchema).toMatchObject({ required: ['message'] });
      const rivalAgents = await api('GET', `/api/subaccounts/${theirs()}/agents`, rivalCookie, theirs());
      for (const rivalAgent of rivalAgents.json().agents as TAgent[]) {
        expect(tools.map((one) => one.title)).not.toContain(rivalAgent.name);
      }
      const result = (await client.callTool({ name: tool?.name ?? '', arguments: { message: 'Hello' } })) as {
        content: { type: string; text: string }[];
        structuredContent: { answer: string; threadId: string };
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.threadId).toMatch(/^thr_/);
      expect(result.content[0]?.text).toBe(result.structuredContent.answer);
      expect(result.structuredContent.answer.length).toBeGreaterThan(0);
      const stored = await t.deps.db.select().from(threads).where(eq(threads.id, result.structuredContent.threadId));
      expect(stored[0]).toMatchObject({ agentId: agent.id, subaccountId: ours(), channel: 'api' });
    } finally {
      await client.close();
    }
  });

  it('answers 401 without a key or with a bad one', async () => {
    await expect(connect('sk_sb_not-a-real-key')).rejects.toMatchObject({ code: 401 });
    const bare = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(bare.statusCode).toBe(401);
  });
});
