import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';

let t: TestApp;
let admin: string;
let connectionId: string;
let widgetId: string;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ WIDGET_VISITOR_BURST_LIMIT: '5' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' });
  admin = await t.cookieFor(agency.ownerId);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/connections',
    headers: { cookie: admin },
    payload: { subaccountId, buildId: agent.id, type: 'website-widget' },
  });
  ({ connectionId, widgetId } = created.json());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const chat = (payload: Record<string, unknown>, headers: Record<string, string> = {}, id = widgetId) =>
  t.app.inject({
    method: 'POST',
    url: `/api/widget/${id}/chat`,
    headers,
    payload: { contactIdentifier: 'preview_1_abc', ...payload },
  });

const settings = async (values: Record<string, unknown>) => {
  await t.app.inject({
    method: 'PUT',
    url: `/api/connections/${connectionId}`,
    headers: { cookie: admin },
    payload: { settings: values },
  });
  await t.app.inject({ method: 'POST', url: `/api/connections/${connectionId}/deploy`, headers: { cookie: admin } });
};

/**
 * Sends a burst that must fall within one minute's window of the per-minute limits (they count
 * in fixed windows). When the minute turns during it, it is sent again as a new visitor, in the
 * new window: a burst of a few seconds cannot see two minutes turn.
 */
const withinOneMinute = async <T>(visitor: string, send: (contactIdentifier: string) => Promise<T>): Promise<T> => {
  for (let attempt = 0; ; attempt += 1) {
    const minute = Math.floor(Date.now() / 60_000);
    const result = await send(`${visitor}_${attempt}`);
    if (Math.floor(Date.now() / 60_000) === minute || attempt > 0) return result;
  }
};

describe('public widget chat', () => {
  it('serves the loader script with its launcher configuration and the iframe page', async () => {
    const script = await t.app.inject({ method: 'GET', url: `/widget/${widgetId}/widget.js` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain(`"${widgetId}"`);
    expect(script.body).toContain('"p":"bottom-right"');
    const professional = await t.app.inject({ method: 'GET', url: `/widget/${widgetId}/widget-professional.js` });
    expect(professional.statusCode).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: `/widget/${widgetId}?mode=loader` });
    expect(page.body).toContain('window.__SBW__=');
    expect(page.body).not.toContain('dailyLimit');
    expect((await t.app.inject({ method: 'GET', url: '/widget/wgt_nothere/widget.js' })).statusCode).toBe(404);
  });

  it('stores the message and the reply, and lists the visitor conversation', async () => {
    const res = await chat({ message: '<b>Hi</b> there', history: [{ role: 'user', content: '<b>Hi</b> there' }] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message.length).toBeGreaterThan(0);
    expect(body.newWidgetConversationThreadId).toBe(body.widgetConversationThreadId);
    const again = await chat({ message: 'And pricing?', widgetConversationThreadId: body.widgetConversationThreadId });
    expect(again.json().widgetConversationThreadId).toBe(body.widgetConversationThreadId);
    expect(again.json().newWidgetConversationThreadId).toBeUndefined();
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/widget/${widgetId}/conversations?contactIdentifier=preview_1_abc`,
    });
    expect(list.json().conversations[0]).toMatchObject({
      threadId: body.threadId,
      totalMessages: 4,
      customerNumber: 'preview_1_abc',
    });
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/widget/${widgetId}/conversations?contactIdentifier=someone_else`,
    });
    expect(other.json().conversations).toEqual([]);
    const transcript = await t.app.inject({
      method: 'GET',
      url: `/api/connections/${connectionId}/conversations/${body.threadId}`,
      headers: { cookie: admin },
    });
    expect(transcript.json().messages[0]).toMatchObject({ role: 'user', content: '<b>Hi</b> there' });
  });

  it('streams the reply as server-sent events', async () => {
    const response = await fetch(`${base}/api/widget/${widgetId}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'Tell me about solar', contactIdentifier: 'preview_2_stream' }),
    });
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(text).toContain('event: delta');
    expect(text).toMatch(/event: done\ndata: \{"message":/);
  });

  it('refuses an unknown widget, a site not allowed, bad input and bursts, each with its message', async () => {
    const unknown = await chat({ message: 'hi' }, {}, 'wgt_unknown');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Widget not found');
    const empty = await chat({ message: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.field).toBe('body.message');

    await settings({ allowedDomains: ['shop.example.com'] });
    const denied = await chat({ message: 'hi' }, { origin: 'https://evil.example.org' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('This website is not allowed to use this chat widget');
    const allowed = await chat(
      { message: 'hi', contactIdentifier: 'preview_3' },
      { origin: 'https://shop.example.com' },
    );
    expect(allowed.statusCode).toBe(200);
    const viaFrame = await chat(
      { message: 'hi', contactIdentifier: 'preview_3' },
      { origin: 'http://localhost:80', host: 'localhost:80', 'x-widget-host': 'https://shop.example.com' },
    );
    expect(viaFrame.statusCode).toBe(200);
    await settings({ allowedDomains: [] });

    const statuses = await withinOneMinute('preview_burst', async (contactIdentifier) => {
      const sent: number[] = [];
      for (let i = 0; i < 7; i += 1) sent.push((await chat({ message: `burst ${i}`, contactIdentifier })).statusCode);
      return sent;
    });
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses[6]).toBe(429);
  });

  it('answers 429 with the daily limit message past the daily limit', async () => {
    await settings({ dailyLimit: 1 });
    const res = await chat({ message: 'over the limit', contactIdentifier: 'preview_daily' });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe('This chat has reached its daily message limit. Please try again tomorrow.');
    await settings({ dailyLimit: 200 });
  });

  it('counts only admitted messages against the daily limit: one visitor flooding cannot shut the widget', async () => {
    await settings({ dailyLimit: 10 });
    const flood = await withinOneMinute('preview_flooder', async (contactIdentifier) => {
      // A fresh day counter for this widget, so earlier tests (and an earlier attempt) do not count.
      await t.deps.db.execute(sql`delete from widget_counters where key like ${`d:${widgetId}%`}`);
      if (t.deps.redis) {
        await t.deps.redis.del(`${t.deps.env.REDIS_PREFIX}wc:d:${widgetId}:${new Date().toISOString().slice(0, 10)}`);
      }
      const sent: number[] = [];
      for (let i = 0; i < 40; i += 1) sent.push((await chat({ message: `flood ${i}`, contactIdentifier })).statusCode);
      return sent;
    });
    expect(flood.filter((status) => status === 200)).toHaveLength(5);
    expect(flood.filter((status) => status === 429)).toHaveLength(35);
    const other = await chat({ message: 'Is anyone there?', contactIdentifier: 'preview_someone_else' });
    expect(other.statusCode, other.body).toBe(200);
    await settings({ dailyLimit: 200 });
  });

  it('lets a person take over: the agent stays silent and the visitor receives the reply live', async () => {
    const first = (await chat({ message: 'I need a human', contactIdentifier: 'preview_takeover' })).json();
    const threadId = first.threadId as string;
    const takeover = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${connectionId}/conversations/${threadId}/takeover`,
      headers: { cookie: admin },
      payload: { takeOver: true },
    });
    expect(takeover.json().thread.handledByUserId).not.toBeNull();
    const silent = (
      await chat({ message: 'Hello?', contactIdentifier: 'preview_takeover', widgetConversationThreadId: threadId })
    ).json();
    expect(silent).toMatchObject({ message: '', humanHandled: true });

    const controller = new AbortController();
    const events = await fetch(
      `${base}/api/widget/${widgetId}/threads/${threadId}/events?contactIdentifier=preview_takeover`,
      {
        signal: controller.signal,
      },
    );
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${connectionId}/conversations/${threadId}/messages`,
      headers: { cookie: admin },
      payload: { content: 'Hi, this is Avery from the team.' },
    });
    expect(sent.statusCode).toBe(200);
    let received = '';
    while (!received.includes('Avery')) received += new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('event: message');
    controller.abort();
    // Let the server see the closed stream (and unsubscribe) before the app shuts down.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/widget/${widgetId}/conversations?contactIdentifier=preview_takeover`,
    });
    expect(listed.json().conversations[0]).toMatchObject({ threadId, unreadCount: 1, status: 'human' });

    const wrongVisitor = await t.app.inject({
      method: 'GET',
      url: `/api/widget/${widgetId}/threads/${threadId}/messages?contactIdentifier=intruder`,
    });
    expect(wrongVisitor.statusCode).toBe(404);
  });
});
