import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { seedAgent } from '../agents/seed';
import { debitUsages } from '../billing/ledger';
import { usageLogs } from '../billing/schema';
import { replyAsAgent } from '../conversations/reply';
import { providerKeys } from '../providers/schema';
import { flushMetering } from './credits';
import { runModel } from './gateway';
import { providerCredentials } from './models';

describe('LLM gateway against a local OpenAI-compatible stub', () => {
  let stub: OpenAiStub;
  let toolServer: http.Server;
  let toolUrl: string;
  let t: TestApp;
  let accountId: string;
  let subaccountId: string;
  let cookie: string;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    toolServer = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ slots: ['9:00', '11:30'], query: req.url }));
    });
    await new Promise<void>((resolve) => toolServer.listen(0, '127.0.0.1', resolve));
    toolUrl = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}/slots`;
    t = await startTestApp({
      OPENAI_BASE_URL: stub.url,
      OPENROUTER_BASE_URL: stub.url,
      PRIVATE_URL_ALLOWLIST: '127.0.0.1',
      LLM_TIMEOUT_MS: '1000',
    });
    const agency = await seedAgency(t.deps.db, {
      accountName: 'LLM Agency',
      owner: { email: 'owner@llm.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    accountId = agency.accountId;
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
    toolServer.close();
  });

  const providersUrl = (provider: string) => `/api/connect/${subaccountId}/providers/${provider}`;

  it('refuses an invalid key on save with the spec message and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: providersUrl('openai'),
      headers: { cookie },
      payload: { apiKey: 'bad-key' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({
      code: 'API_KEY_INVALID',
      message: 'Your API key is invalid or has been revoked.',
    });
    expect(await t.deps.db.select().from(providerKeys)).toHaveLength(0);
  });

  it('tests a key on save, stores it encrypted and returns only its tail and the models', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: providersUrl('openai'),
      headers: { cookie },
      payload: { apiKey: 'sk-test-good-1234' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ configured: true, keyTail: '1234', models: ['stub-large', 'stub-small'] });
    expect(res.body).not.toContain('sk-test-good');
    const rows = await t.deps.db.select().from(providerKeys);
    expect(rows[0]?.encryptedKey).not.toContain('sk-test-good');
    expect(stub.requests.at(-1)?.authorization).toBe('Bearer sk-test-good-1234');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/connect/${subaccountId}/providers`,
      headers: { cookie },
    });
    expect(list.body).not.toContain('sk-test-good');
    const models = await t.app.inject({
      method: 'GET',
      url: '/api/models',
      headers: { cookie, 'x-subaccount-id': subaccountId },
    });
    expect(models.json().models.map((m: { model: string }) => m.model)).toEqual([
      'offline',
      'stub-large',
      'stub-small',
    ]);
  });

  it('uses a replaced key at once and knows a removed one is gone, without waiting for its cache', async () => {
    const save = (apiKey: string) =>
      t.app.inject({ method: 'PUT', url: providersUrl('openrouter'), headers: { cookie }, payload: { apiKey } });
    const key = async () => (await providerCredentials(t.deps, accountId, 'openrouter'))?.apiKey ?? null;
    expect(await key()).toBeNull();
    expect((await save('sk-test-good-or-1')).statusCode).toBe(200);
    expect(await key()).toBe('sk-test-good-or-1');
    expect((await save('sk-test-good-or-2')).statusCode).toBe(200);
    expect(await key()).toBe('sk-test-good-or-2');
    const removed = await t.app.inject({ method: 'DELETE', url: providersUrl('openrouter'), headers: { cookie } });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await key()).toBeNull();
  });

  it('answers a plain reply and meters it', async () => {
    const result = await runModel(t.deps, {
      accountId,
      subaccountId,
      choice: { provider: 'openai', model: 'stub-small' },
      messages: [{ role: 'user', content: 'ping' }],
      source: 'test',
      idempotencyKey: 'plain-1',
    });
    expect(result).toMatchObject({ text: 'Stub reply to: ping', offline: false, model: 'stub-small' });
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 6 });
    await flushMetering();
    const logs = await t.deps.db.select().from(usageLogs).where(eq(usageLogs.accountId, accountId));
    expect(logs.some((log) => log.model === 'stub-small' && log.inputTokens === 12 && log.outputTokens === 6)).toBe(
      true,
    );
    const lastBody = stub.requests.at(-1)?.body as { stream?: boolean } | undefined;
    expect(lastBody?.stream).toBeFalsy();
  });

  it('streams a reply in several deltas', async () => {
    const deltas: string[] = [];
    const result = await runModel(t.deps, {
      accountId,
      choice: { provider: 'openai', model: 'stub-small' },
      messages: [{ role: 'user', content: 'tell me three words' }],
      source: 'test',
      onDelta: (text) => deltas.push(text),
    });
    expect(deltas.length).toBeGreaterThan(2);
    // The provider's opening empty delta is not passed on: the first one sent is the first text.
    expect(deltas[0]).toBe('Stub ');
    expect(deltas.join('')).toBe('Stub reply to: tell me three words');
    expect(result.text).toBe('Stub reply to: tell me three words');
    expect(stub.requests.at(-1)?.body).toMatchObject({ stream: true });
  });

  it('returns validated structured output', async () => {
    const result = await runModel(t.deps, {
      accountId,
      choice: { provider: 'offline', model: 'offline' },
      messages: [{ role: 'user', content: 'An assistant for a bakery' }],
      schema: z.object({ name: z.string(), count: z.number().int().min(2), tags: z.array(z.string()).min(3) }),
      source: 'test',
    });
    expect(result.offline).toBe(true);
    expect(result.object).toMatchObject({ name: 'Bakery Assistant', count: 2 });
  });

  it('runs a tool call round trip through the agent reply', async () => {
    const agent = await seedAgent(t.deps.db, {
      accountId,
      subaccountId,
      provider: 'openai',
      model: 'stub-small',
      tools: [
        {
          id: 'tool_1',
          name: 'find_slots',
          description: 'Finds free appointment slots',
          method: 'GET',
          url: toolUrl,
          headers: {},
          inputSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
          fixedValues: {},
        },
      ],
    });
    const result = await replyAsAgent(t.deps, {
      agentId: agent.id,
      accountId,
      subaccountId,
      message: 'Any slots?',
      channel: 'test',
    });
    expect(result.toolCalls).toEqual([
      { name: 'find_slots', input: { day: 'stub' }, output: { slots: ['9:00', '11:30'], query: '/slots?day=stub' } },
    ]);
    expect(result.message).toContain('Tool said:');
    expect(result.message).toContain('11:30');
  });

  it.each([
    ['stub-quota', 'You exceeded your current quota, please check your plan and billing details.', 'quota_exceeded'],
    ['stub-ratelimit', 'Rate limit exceeded. Too many requests in a short period.', 'rate_limit'],
    ['stub-missing', 'The requested AI model is not available.', 'model_error'],
    ['stub-server', 'Server error occurred', 'config_error'],
    ['stub-slow', 'The request timed out.', 'timeout'],
  ])('maps the provider failure of %s to its message', async (model, message, reason) => {
    await expect(
      runModel(t.deps, {
        accountId,
        choice: { provider: 'openai', model },
        messages: [{ role: 'user', content: 'x' }],
        source: 'test',
      }),
    ).rejects.toMatchObject({ message, reason });
  });

  it("stops a model call when its caller goes away, long before the model's timeout", async () => {
    const caller = new AbortController();
    const started = performance.now();
    setTimeout(() => caller.abort(), 100);
    await expect(
      runModel(t.deps, {
        accountId,
        choice: { provider: 'openai', model: 'stub-slow' },
        messages: [{ role: 'user', content: 'x' }],
        source: 'test',
        signal: caller.signal,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('lets many calls at once share one signal without a listener warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      const results = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          runModel(t.deps, {
            accountId,
            choice: { provider: 'openai', model: 'stub-small' },
            messages: [{ role: 'user', content: `question ${i}` }],
            source: 'test',
            signal: run.signal,
          }),
        ),
      );
      expect(results).toHaveLength(15);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('maps an unreachable provider to the network error', async () => {
    await t.deps.db.insert(providerKeys).values({
      id: 'pvk_closed',
      accountId,
      provider: 'compatible',
      encryptedKey: '',
      keyTail: '',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: ['m'],
    });
    await expect(
      runModel(t.deps, {
        accountId,
        choice: { provider: 'compatible', model: 'm' },
        messages: [{ role: 'user', content: 'x' }],
        source: 'test',
      }),
    ).rejects.toMatchObject({ message: 'Unable to connect to the service.', reason: 'network_error' });
  });

  it('refuses with 402 before calling the provider when credits are gone', async () => {
    const poor = await seedAgency(t.deps.db, {
      accountName: 'Poor',
      owner: { email: 'owner@poor.test', name: 'Poor' },
      subaccounts: ['P'],
    });
    await t.deps.db.insert(providerKeys).values({
      id: 'pvk_poor',
      accountId: poor.accountId,
      provider: 'openai',
      encryptedKey:
        (await t.deps.db.select().from(providerKeys).where(eq(providerKeys.provider, 'openai')))[0]?.encryptedKey ?? '',
      keyTail: '1234',
      models: [],
    });
    await debitUsages(t.deps, [
      {
        accountId: poor.accountId,
        subaccountId: null,
        model: 'drain',
        inputTokens: 0,
        outputTokens: 0,
        credits: 1_000_000,
        idempotencyKey: 'drain',
        source: 'test',
      },
    ]);
    const before = stub.requests.length;
    await expect(
      runModel(t.deps, {
        accountId: poor.accountId,
        choice: { provider: 'openai', model: 'stub-small' },
        messages: [{ role: 'user', content: 'x' }],
        source: 'test',
      }),
    ).rejects.toMatchObject({ code: 'BILLING_INSUFFICIENT_CREDITS', status: 402 });
    expect(stub.requests.length).toBe(before);
  });
});
