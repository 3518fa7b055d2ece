import { mcpToolNameOf } from '@switchboard/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedAgency } from '../../seed';
import { useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type HeldModel, startHeldModel } from '../../testing/held-model';
import { seedAgent } from '../agents/seed';

/**
 * `/api/health` answers from the last background probe, not with a database round trip per call:
 * a load balancer's check must not queue behind the requests in progress, and a database that
 * stops answering must still be reported within a few seconds.
 */
let t: TestApp;
let model: HeldModel;
let key: string;
let toolName: string;

const health = () => t.app.inject({ url: '/api/health' });

beforeAll(async () => {
  t = await startTestApp({
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
    FREE_PLAN_CREDITS: '1000000',
    STREAMS_PER_ADDRESS: '50',
    STREAMS_PER_KEY: '100',
  });
  model = await startHeldModel();
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Health Agency',
    owner: { email: 'owner@health.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  const subaccountId = agency.subaccountIds[0] as string;
  await useCompatibleProvider(t.deps.db, agency.accountId, model.url);
  const agent = await seedAgent(t.deps.db, {
    accountId: agency.accountId,
    subaccountId,
    name: 'Held Agent',
    provider: 'compatible',
    model: 'stub-model',
  });
  toolName = mcpToolNameOf(agent.name);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': subaccountId },
    payload: { name: 'MCP client' },
  });
  key = created.json().key;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await model?.close();
});

afterEach(() => vi.restoreAllMocks());

describe('/api/health', () => {
  it('answers many calls from the last probe, without a database round trip each', async () => {
    expect((await health()).statusCode).toBe(200);
    const ping = vi.spyOn(t.deps.database, 'ping');
    const answers = await Promise.all(Array.from({ length: 50 }, () => health()));
    for (const answer of answers) expect(answer.json()).toMatchObject({ status: 'ok', database: { ok: true } });
    // At most the background probe of one tick, whatever the number of calls.
    expect(ping.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('answers while a probe waits for a busy database', async () => {
    expect((await health()).statusCode).toBe(200);
    let free = () => {};
    const busy = new Promise<void>((resolve) => {
      free = resolve;
    });
    const ping = vi.spyOn(t.deps.database, 'ping').mockImplementation(async () => {
      await busy;
      return 0;
    });
    const answeredAtOnce = () =>
      Promise.race([health(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1000))]);
    try {
      const first = await answeredAtOnce();
      expect(first, 'health waited for the busy database').not.toBeNull();
      expect(first?.statusCode).toBe(200);
      // Also once the next background probe is waiting for the database.
      await expect.poll(() => ping.mock.calls.length, { timeout: 3000, interval: 20 }).toBeGreaterThan(0);
      const second = await answeredAtOnce();
      expect(second, 'health waited for the busy database').not.toBeNull();
      expect(second?.statusCode).toBe(200);
    } finally {
      free();
    }
  });

  it('reports a database that stopped answering within a few seconds, and its return', async () => {
    const status = async () => (await health()).statusCode;
    vi.spyOn(t.deps.database, 'ping').mockRejectedValue(new Error('connection refused'));
    await expect.poll(status, { timeout: 5000, interval: 100 }).toBe(503);
    expect((await health()).json()).toMatchObject({ status: 'degraded', database: { ok: false } });
    vi.restoreAllMocks();
    await expect.poll(status, { timeout: 5000, interval: 100 }).toBe(200);

    // A database that hangs is reported once its probe gives up waiting.
    vi.spyOn(t.deps.database, 'ping').mockImplementation(() => new Promise<number>(() => {}));
    await expect.poll(status, { timeout: 6000, interval: 100 }).toBe(503);
    vi.restoreAllMocks();
    await expect.poll(status, { timeout: 6000, interval: 100 }).toBe(200);
  }, 30_000);

  it('answers while the MCP calls of one client run against a slow model; its calls past the cap are refused before any work', async () => {
    const calls = Array.from({ length: 300 }, (_, index) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: {
          jsonrpc: '2.0',
          id: index,
          method: 'tools/call',
          params: { name: toolName, arguments: { message: `Question ${index}` } },
        },
      }),
    );
    await expect.poll(() => model.received(), { timeout: 30_000, interval: 50 }).toBe(50);
    expect(t.app.streamSlots.inUse({ address: '127.0.0.1' })).toBe(50);

    const answered = await health();
    expect(answered.json()).toMatchObject({ status: 'ok', database: { ok: true } });
    // Health answered while every admitted call was still waiting for the model.
    expect(model.received()).toBe(50);
    expect(t.app.streamSlots.inUse({ address: '127.0.0.1' })).toBe(50);

    model.release();
    const answers = await Promise.all(calls);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(250);
    expect(refused[0]?.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused[0]?.headers['retry-after']).toBeDefined();
    const ran = answers.filter((answer) => answer.statusCode === 200);
    expect(ran).toHaveLength(50);
    expect(ran[0]?.json().result.structuredContent.answer).toBe('Held answer.');
    // No refused call reached the model, and every slot came back.
    expect(model.received()).toBe(50);
    expect(t.app.streamSlots.inUse({ address: '127.0.0.1' })).toBe(0);
  }, 60_000);
});
