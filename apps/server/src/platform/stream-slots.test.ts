import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgent } from '../features/agents/seed';
import { seedAgency } from '../seed';
import { useCompatibleProvider } from '../testing/fixtures';
import { startTestApp, type TestApp } from '../testing/harness';
import { type HeldModel, startHeldModel } from '../testing/held-model';

/**
 * Caps on the streams and calls in progress one client holds open (STREAMS_PER_ADDRESS,
 * STREAMS_PER_KEY): one over the cap is answered 429 before any work, and a slot comes back when its
 * stream ends, whether the answer finished or the client went away.
 */
let t: TestApp;
let model: HeldModel;
let base: string;
let widgetId: string;
let threadId: string;
let agentId: string;
let key: { id: string; key: string };
const CONTACT = 'visitor_streams';

/** An open SSE request over a real socket: its status once the headers came, and a way to drop it. */
const openStream = (path: string) =>
  new Promise<{ status: number; body: string; drop: () => void }>((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: { accept: 'text/event-stream' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve({ status, body, drop: () => request.destroy() }));
        return;
      }
      response.once('data', () => resolve({ status, body: '', drop: () => request.destroy() }));
    });
    request.on('error', reject);
  });

const eventsPath = (widget = widgetId) =>
  `/api/widget/${widget}/threads/${threadId}/events?contactIdentifier=${CONTACT}`;

const completion = (remoteAddress: string, stream = false) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    remoteAddress,
    headers: { authorization: `Bearer ${key.key}` },
    payload: { model: agentId, stream, messages: [{ role: 'user', content: 'Hello?' }] },
  });

beforeAll(async () => {
  t = await startTestApp({
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
    FREE_PLAN_CREDITS: '1000000',
    STREAMS_PER_ADDRESS: '2',
    STREAMS_PER_KEY: '3',
  });
  model = await startHeldModel();
  const widgetAgency = await seedAgency(t.deps.db, {
    accountName: 'Widget Agency',
    owner: { email: 'owner@streams-widget.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  const widgetSubaccount = widgetAgency.subaccountIds[0] as string;
  const widgetAgent = await seedAgent(t.deps.db, { accountId: widgetAgency.accountId, subaccountId: widgetSubaccount });
  const connection = await t.app.inject({
    method: 'POST',
    url: '/api/connections',
    headers: { cookie: await t.cookieFor(widgetAgency.ownerId) },
    payload: { subaccountId: widgetSubaccount, buildId: widgetAgent.id, type: 'website-widget' },
  });
  expect(connection.statusCode, connection.body).toBe(201);
  widgetId = connection.json().widgetId;
  const chat = await t.app.inject({
    method: 'POST',
    url: `/api/widget/${widgetId}/chat`,
    payload: { message: 'Hello', contactIdentifier: CONTACT },
  });
  expect(chat.statusCode, chat.body).toBe(200);
  threadId = chat.json().threadId;

  const apiAgency = await seedAgency(t.deps.db, {
    accountName: 'API Agency',
    owner: { email: 'owner@streams-api.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  const subaccountId = apiAgency.subaccountIds[0] as string;
  await useCompatibleProvider(t.deps.db, apiAgency.accountId, model.url);
  agentId = (
    await seedAgent(t.deps.db, {
      accountId: apiAgency.accountId,
      subaccountId,
      name: 'Held Agent',
      provider: 'compatible',
      model: 'stub-model',
    })
  ).id;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: { cookie: await t.cookieFor(apiAgency.ownerId), 'x-subaccount-id': subaccountId },
    payload: { name: 'Streams' },
  });
  key = created.json();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await model?.close();
});

const slotsOf = (holder: { address: string } | { keyId: string }) => t.app.streamSlots.inUse(holder);

describe('event streams of one address', () => {
  it('are capped: the next one is refused before any work, and a client that goes away gives its slot back', async () => {
    const first = await openStream(eventsPath());
    const second = await openStream(eventsPath());
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(slotsOf({ address: '127.0.0.1' })).toBe(2);

    // Refused before the route looked anything up: a widget that does not exist answers 429, not 404.
    const over = await openStream(eventsPath('wgt_doesnotexist'));
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).error.code).toBe('RATE_LIMIT_EXCEEDED');

    first.drop();
    await expect.poll(() => slotsOf({ address: '127.0.0.1' }), { timeout: 5000, interval: 20 }).toBe(1);
    const third = await openStream(eventsPath());
    expect(third.status).toBe(200);

    second.drop();
    third.drop();
    await expect.poll(() => slotsOf({ address: '127.0.0.1' }), { timeout: 5000, interval: 20 }).toBe(0);
  });

  it('give a finished answer its slot back (a widget chat)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const chat = await t.app.inject({
        method: 'POST',
        url: `/api/widget/${widgetId}/chat`,
        payload: { message: `Again ${round}`, contactIdentifier: CONTACT },
      });
      expect(chat.statusCode, chat.body).toBe(200);
    }
    expect(slotsOf({ address: '127.0.0.1' })).toBe(0);
  });
});

describe('calls in progress with one API key', () => {
  it('are capped across addresses; a refused call never reaches the model, and finished calls give their slots back', async () => {
    model.hold();
    const calls = ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map((address, index) =>
      completion(address, index === 0),
    );
    await expect.poll(() => model.received(), { timeout: 10_000, interval: 20 }).toBe(3);
    expect(slotsOf({ keyId: key.id })).toBe(3);

    const over = await completion('203.0.113.4');
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(model.received()).toBe(3);

    model.release();
    for (const answer of await Promise.all(calls)) expect(answer.statusCode, answer.body).toBe(200);
    expect(slotsOf({ keyId: key.id })).toBe(0);
    expect((await completion('203.0.113.4')).statusCode).toBe(200);
  });

  it('give the slot of a streamed call back when its client disconnects', async () => {
    model.hold();
    const before = model.received();
    const request = http.request(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    });
    request.on('error', () => {});
    request.end(JSON.stringify({ model: agentId, stream: true, messages: [{ role: 'user', content: 'Hi' }] }));
    await expect.poll(() => model.received(), { timeout: 10_000, interval: 20 }).toBe(before + 1);
    expect(slotsOf({ keyId: key.id })).toBe(1);
    request.destroy();
    await expect.poll(() => slotsOf({ keyId: key.id }), { timeout: 5000, interval: 20 }).toBe(0);
    expect(slotsOf({ address: '127.0.0.1' })).toBe(0);
    model.release();
  });
});
