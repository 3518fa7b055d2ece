import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TWebhookDelivery, TWebhookEndpoint } from '@switchboard/core';
import safeRegex from 'safe-regex2';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { readBody } from '../../testing/read-body';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { asksForHuman, LEAD_PATTERNS, leadDetailsIn } from './conversation-events';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiving endpoint on a real socket: answers with the queued statuses, then 200. */
const startReceiver = async () => {
  const received: Received[] = [];
  const statuses: number[] = [];
  let delayMs = 0;
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    received.push({ headers: request.headers, body });
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    response.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' });
    response.end('ok from receiver');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/switchboard`,
    received,
    answerNext: (...next: number[]) => statuses.push(...next),
    slow: (ms: number) => {
      delayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

let t: TestApp;
let agency: SeededAgency;
let rival: SeededAgency;
let cookie: string;
let rivalCookie: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let n = 0;

const seed = async (label: string) => {
  n += 1;
  return seedAgency(t.deps.db, {
    accountName: `${label} ${n}`,
    owner: { email: `${label.toLowerCase()}${n}-${Date.now()}@example.test`, name: `${label} Owner` },
    subaccounts: [`${label} Client`],
  });
};

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  as: string,
  payload?: unknown,
  subaccountId?: string,
) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: as, ...(subaccountId ? { 'x-subaccount-id': subaccountId } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const subaccount = () => agency.subaccountIds[0] as string;
const base = () => `/api/connect/${subaccount()}/webhooks`;

const createEndpoint = async (events: string[], url = receiver.url) => {
  const response = await api('POST', base(), cookie, { url, events, description: 'CRM sync' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as TWebhookEndpoint;
};

const deliveriesOf = async (endpointId: string) =>
  (await api('GET', `${base()}/${endpointId}/deliveries`, cookie)).json().deliveries as TWebhookDelivery[];

const verify = async (endpointId: string, message: Received) => {
  const { secret } = (await api('GET', `${base()}/${endpointId}/secret`, cookie)).json() as { secret: string };
  expect(secret).toMatch(/^whsec_/);
  // The vendor's own verifier (the Standard Webhooks library) accepts the request as sent.
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };
};

beforeAll(async () => {
  t = await startTestApp({ PRIVATE_URL_ALLOWLIST: '127.0.0.1' });
  receiver = await startReceiver();
  agency = await seed('Hooks');
  rival = await seed('Rival');
  cookie = await t.cookieFor(agency.ownerId);
  rivalCookie = await t.cookieFor(rival.ownerId);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('outbound webhooks', () => {
  it('sends signed conversation events that the Standard Webhooks verifier accepts', async () => {
    const endpoint = await createEndpoint([
      'conversation.started',
      'message.received',
      'message.sent',
      'conversation.human_requested',
      'lead.captured',
    ]);
    const agent = (await api('POST', '/api/agents', cookie, { name: 'Front desk' }, subaccount())).json();
    // A live conversation (the API channel, as a site's own backend would call it).
    const chat = await api(
      'POST',
      '/api/openrouter/chat',
      cookie,
      { build_id: agent.id, message: 'Hi, can I talk to a real person? My email is Sam@Example.com' },
      subaccount(),
    );
    expect(chat.statusCode, chat.body).toBe(200);
    await until(
      () => receiver.received.length,
      (count) => count >= 5,
    );
    const events = await Promise.all(receiver.received.map((message) => verify(endpoint.id, message)));
    expect(events.map((event) => event.type).sort()).toEqual([
      'conversation.human_requested',
      'conversation.started',
      'lead.captured',
      'message.received',
      'message.sent',
    ]);
    const lead = events.find((event) => event.type === 'lead.captured');
    expect(lead?.data).toMatchObject({ email: 'sam@example.com', agentId: agent.id, source: 'chat' });
    const sent = events.find((event) => event.type === 'message.sent');
    expect(sent?.data).toMatchObject({ agentId: agent.id, message: { role: 'assistant' } });
    // A tampered body fails the same verifier.
    const first = receiver.received[0] as Received;
    const { secret } = (await api('GET', `${base()}/${endpoint.id}/secret`, cookie)).json();
    expect(() => new Webhook(secret).verify(`${first.body} `, first.headers as Record<string, string>)).toThrow();

    const log = await until(
      () => deliveriesOf(endpoint.id),
      (rows) => rows.length === 5 && rows.every((row) => row.status === 'succeeded'),
    );
    expect(log[0]).toMatchObject({ attempts: 1, responseStatus: 200, responseBody: 'ok from receiver' });
    const listed = (await api('GET', base(), cookie)).json().endpoints as TWebhookEndpoint[];
    expect(listed.find((row) => row.id === endpoint.id)?.lastDelivery).toMatchObject({ status: 'succeeded' });
    await api('DELETE', `${base()}/${endpoint.id}`, cookie);
  });

  it('announces nothing of a test chat, a designer preview or a demo (sandbox origin)', async () => {
    const endpoint = await createEndpoint([
      'conversation.started',
      'message.received',
      'message.sent',
      'conversation.human_requested',
      'lead.captured',
    ]);
    receiver.received.length = 0;
    const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: subaccount() });
    const message = 'Can I talk to a real person? My email is preview@example.com';
    const tried = await api('POST', `/api/agents/${agent.id}/chat`, cookie, { message }, subaccount());
    expect(tried.statusCode, tried.body).toBe(200);
    const widget = await api(
      'POST',
      '/api/connections',
      cookie,
      { subaccountId: subaccount(), buildId: agent.id, type: 'website-widget' },
      subaccount(),
    );
    expect(widget.statusCode, widget.body).toBeLessThan(300);
    const preview = await api(
      'POST',
      `/api/connections/${widget.json().connectionId}/preview-chat`,
      cookie,
      { message },
      subaccount(),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    const demo = await api(
      'POST',
      '/api/demos',
      cookie,
      { name: 'Pitch', type: 'standard', buildId: agent.id },
      subaccount(),
    );
    expect(demo.statusCode, demo.body).toBe(201);
    const demoChat = await t.app.inject({
      method: 'POST',
      url: '/api/demo-chat',
      payload: { demoId: demo.json().demoId, message },
    });
    expect(demoChat.statusCode, demoChat.body).toBe(200);
    // A live message after them is delivered: when it has arrived, the sandbox ones would have too.
    await api('POST', '/api/openrouter/chat', cookie, { build_id: agent.id, message: 'Hello' }, subaccount());
    const log = await until(
      () => deliveriesOf(endpoint.id),
      (rows) => rows.length >= 3 && rows.every((row) => row.status === 'succeeded'),
    );
    expect(log.map((row) => row.type).sort()).toEqual(['conversation.started', 'message.received', 'message.sent']);
    expect(JSON.stringify(receiver.received.map((hit) => hit.body))).not.toContain('preview@example.com');
    await api('DELETE', `${base()}/${endpoint.id}`, cookie);
  });

  it('retries a failed delivery with backoff, keeps one webhook-id, and turns off an endpoint that answers 410', async () => {
    const endpoint = await createEndpoint(['message.received']);
    receiver.received.length = 0;
    receiver.answerNext(503);
    const test = await api('POST', `${base()}/${endpoint.id}/test`, cookie);
    expect(test.statusCode, test.body).toBe(202);
    const [done] = await until(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    expect(done).toMatchObject({ type: 'webhook.test', attempts: 2, responseStatus: 200 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]?.headers['webhook-id']).toBe(receiver.received[1]?.headers['webhook-id']);

    receiver.answerNext(410);
    await api('POST', `${base()}/${endpoint.id}/test`, cookie);
    const off = await until(
      async () => ((await api('GET', base(), cookie)).json().endpoints as TWebhookEndpoint[])[0],
      (row) => row?.enabled === false,
    );
    expect(off?.disabledReason).toContain('410');
    const again = await api('PATCH', `${base()}/${endpoint.id}`, cookie, { enabled: true });
    expect(again.json()).toMatchObject({ enabled: true, disabledReason: null });
    await api('DELETE', `${base()}/${endpoint.id}`, cookie);
  });

  it('resends an event with the same webhook-id, once when asked twice at once', async () => {
    const endpoint = await createEndpoint(['message.sent']);
    await api('POST', `${base()}/${endpoint.id}/test`, cookie);
    const [original] = await until(
      () => deliveriesOf(endpoint.id),
      (rows) => rows[0]?.status === 'succeeded',
    );
    receiver.slow(700);
    const path = `${base()}/${endpoint.id}/deliveries/${original?.id}/resend`;
    const answers = await Promise.all([api('POST', path, cookie), api('POST', path, cookie)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    const resent = answers.find((answer) => answer.statusCode === 202)?.json() as TWebhookDelivery;
    expect(resent.eventId).toBe(original?.eventId);
    const both = await until(
      () => deliveriesOf(endpoint.id),
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'succeeded'),
    );
    expect(both.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    receiver.slow(0);
    await api('DELETE', `${base()}/${endpoint.id}`, cookie);
  });

  it('refuses addresses inside the network, bad events, and other tenants', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.8/hook', 'ftp://example.com/x']) {
      const refused = await api('POST', base(), cookie, { url, events: ['message.sent'] });
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().error.field).toMatch(/(^|\.)url$/);
    }
    const none = await api('POST', base(), cookie, { url: receiver.url, events: [] });
    expect(none.statusCode).toBe(422);
    const unknown = await api('POST', base(), cookie, { url: receiver.url, events: ['everything'] });
    expect(unknown.statusCode).toBe(422);

    const endpoint = await createEndpoint(['message.sent']);
    const theirs = `/api/connect/${rival.subaccountIds[0]}/webhooks/${endpoint.id}`;
    expect((await api('PATCH', theirs, rivalCookie, { enabled: false })).statusCode).toBe(404);
    expect((await api('GET', `${theirs}/secret`, rivalCookie)).statusCode).toBe(404);
    expect((await api('PATCH', `${base()}/${endpoint.id}`, rivalCookie, { enabled: false })).statusCode).toBe(404);
    expect((await api('GET', base(), rivalCookie)).statusCode).toBe(404);
    await api('DELETE', `${base()}/${endpoint.id}`, cookie);
  });

  it('lists every event with an example payload, before sign-in', async () => {
    const catalogue = (await t.app.inject({ method: 'GET', url: '/api/webhook-events' })).json();
    expect(catalogue.events.map((event: { type: string }) => event.type)).toContain('credits.low');
  });
});

describe('what a chat message announces', () => {
  it('finds a request for a person', () => {
    for (const text of ['Can I speak to a human?', 'talk to someone please', 'I want a real person', 'live agent'])
      expect(asksForHuman(text), text).toBe(true);
    for (const text of ['What are your opening hours?', 'Is the person who made my cake there?'])
      expect(asksForHuman(text), text).toBe(false);
  });

  it('finds email addresses and phone numbers, not dates or prices', () => {
    expect(leadDetailsIn('mail me at Jo.Bloggs+cakes@Example.co.uk thanks')).toEqual({
      email: 'jo.bloggs+cakes@example.co.uk',
      phone: null,
    });
    expect(leadDetailsIn('call +44 7700 900123 after 5').phone).toBe('+447700900123');
    expect(leadDetailsIn('my number is 07700 900123').phone).toBe('07700900123');
    expect(leadDetailsIn('555-123-4567').phone).toBe('5551234567');
    for (const text of ['on 2026-11-24 at 10:30', 'it costs 1,250.00', 'order 12345678'])
      expect(leadDetailsIn(text), text).toEqual({ email: null, phone: null });
  });

  it('matches with patterns that cannot backtrack catastrophically', () => {
    // No nested quantifiers (star height 1); the human-request phrases hold many plain alternatives.
    for (const pattern of Object.values(LEAD_PATTERNS))
      expect(safeRegex(pattern, { limit: 40 }), String(pattern)).toBe(true);
    // A long run of near-misses is still answered.
    expect(leadDetailsIn(`${'a.'.repeat(1000)}@`)).toEqual({ email: null, phone: null });
  });
});
