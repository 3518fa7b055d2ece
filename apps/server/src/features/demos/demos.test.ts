import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { seedPlan } from '../billing/seed';
import { setThreadHandler } from '../conversations/repo';
import { messages, threads } from '../conversations/schema';
import { demos } from './schema';

let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let agentId: string;
let adminCookie: string;
let viewerCookie: string;
let otherCookie: string;
let n = 0;

/** An agency on Growth (a complimentary plan): SMS, Facebook and Instagram demos are advanced demos. */
const seed = async (label: string) => {
  n += 1;
  const seeded = await seedAgency(t.deps.db, {
    accountName: `${label} Agency ${n}`,
    owner: { email: `owner${n}-${Date.now()}@example.test`, name: 'Owner Person' },
    subaccounts: [`${label} Client`],
    users: [{ email: `viewer${n}-${Date.now()}@example.test`, name: 'Viewer Person', role: 'viewer' }],
  });
  await t.deps.db.transaction((tx) => seedPlan(tx, seeded.accountId, 'sb_growth_month_3000'));
  return seeded;
};

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

const createDemo = async (body: Record<string, unknown> = {}) => {
  const response = await api('POST', '/api/demos', adminCookie, {
    name: 'Solar demo',
    type: 'website',
    buildId: agentId,
    ...body,
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { demoId: string; requestLimit: number; requestCount: number };
};

const chat = (demoId: string, message = 'How much can I save?', extra: Record<string, unknown> = {}) =>
  api('POST', '/api/demo-chat', null, { demoId, message, ...extra });

beforeAll(async () => {
  t = await startTestApp({ DEMO_CHAT_RATE_LIMIT_PER_MINUTE: '10000', FREE_PLAN_CREDITS: '100000' });
  agency = await seed('Sunrise');
  other = await seed('Rival');
  const agent = await seedAgent(t.deps.db, {
    accountId: agency.accountId,
    subaccountId: agency.subaccountIds[0] as string,
    name: 'Secret Internal Agent',
    systemPrompt: 'TOP-SECRET-PROMPT',
  });
  agentId = agent.id;
  adminCookie = await t.cookieFor(agency.ownerId);
  viewerCookie = await t.cookieFor(Object.values(agency.userIds).find((id) => id !== agency.ownerId) as string);
  otherCookie = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t?.close();
});

describe('demo management', () => {
  it('creates a demo with the section 3 defaults and lists it with its request count', async () => {
    const demo = await createDemo({ type: 'sms' });
    expect(demo).toMatchObject({ type: 'sms', requestCount: 0, requestLimit: 100, logoWidth: 100 });
    const full = (await api('GET', `/api/demos/${demo.demoId}`, adminCookie)).json();
    expect(full.settings.chatBubble).toEqual({ enabled: true, message: 'Hi there! Need any help?', delaySeconds: 2 });
    expect(full.settings.backgroundSettings.backgroundColor).toBe('#1a1d23');
    expect(full.settings.platformSettings.headerHeight).toBe(60);
    expect(full.build).toMatchObject({ buildId: agentId, assistantId: agentId });
    const list = (await api('GET', '/api/demos', viewerCookie)).json();
    expect(list.demos.map((item: { demoId: string }) => item.demoId)).toContain(demo.demoId);
  });

  it("takes the agent's name, first message and suggestions unless the creator gives their own", async () => {
    const demo = await createDemo({ type: 'standard' });
    const full = (await api('GET', `/api/demos/${demo.demoId}`, adminCookie)).json();
    expect(full.settings).toMatchObject({
      assistantName: 'Secret Internal Agent',
      welcomeMessage: 'Hello! How can I help you today?',
      suggestedResponses: ['What can you do?', 'How does it work?', 'What are the pricing plans?'],
    });
    const own = await createDemo({ settings: { assistantName: 'Sunny', suggestedResponses: ['Hi?'] } });
    const ownFull = (await api('GET', `/api/demos/${own.demoId}`, adminCookie)).json();
    expect(ownFull.settings).toMatchObject({ assistantName: 'Sunny', suggestedResponses: ['Hi?'] });
  });

  it('refuses bad input with a 4xx naming the field and writes nothing', async () => {
    const before = (await t.deps.db.select().from(demos)).length;
    const badType = await api('POST', '/api/demos', adminCookie, { name: 'x', type: 'fax', buildId: agentId });
    expect(badType.statusCode).toBeGreaterThanOrEqual(400);
    expect(badType.statusCode).toBeLessThan(500);
    const badSize = await api('POST', '/api/demos', adminCookie, {
      name: 'x',
      type: 'website',
      buildId: agentId,
      settings: { embedSettings: { responsive: false, width: '12em' } },
    });
    expect(badSize.statusCode).toBeLessThan(500);
    expect(badSize.statusCode).toBeGreaterThanOrEqual(400);
    const otherAgent = await api('POST', '/api/demos', otherCookie, { name: 'x', type: 'sms', buildId: agentId });
    expect(otherAgent.statusCode).toBe(404);
    expect(otherAgent.json().error.field).toBe('buildId');
    expect((await t.deps.db.select().from(demos)).length).toBe(before);
  });

  it('raises a limit, resets the counter and deletes; viewers and other tenants cannot', async () => {
    const demo = await createDemo();
    expect((await api('PATCH', `/api/demos/${demo.demoId}`, viewerCookie, { requestLimit: 5 })).statusCode).toBe(403);
    expect((await api('PATCH', `/api/demos/${demo.demoId}`, otherCookie, { requestLimit: 5 })).statusCode).toBe(404);
    expect((await api('GET', `/api/demos/${demo.demoId}`, otherCookie)).statusCode).toBe(404);
    const raised = await api('PATCH', `/api/demos/${demo.demoId}`, adminCookie, { requestLimit: 500 });
    expect(raised.json().requestLimit).toBe(500);
    await t.deps.db.update(demos).set({ requestCount: 7 }).where(eq(demos.id, demo.demoId));
    const reset = await api('POST', `/api/demos/${demo.demoId}/reset-count`, adminCookie);
    expect(reset.json().requestCount).toBe(0);
    expect((await api('DELETE', `/api/demos/${demo.demoId}`, otherCookie)).statusCode).toBe(404);
    expect((await api('DELETE', `/api/demos/${demo.demoId}`, adminCookie)).statusCode).toBe(204);
    expect((await api('GET', `/api/shared/demos/${demo.demoId}`, null)).statusCode).toBe(404);
  });
});

describe('a shared demo', () => {
  it('answers anyone with only what the presentation needs', async () => {
    // A demo copies its agent's name when created without one of its own; this one has its own.
    const demo = await createDemo({ settings: { assistantName: 'Sunny' } });
    const response = await api('GET', `/api/shared/demos/${demo.demoId}`, null);
    expect(response.statusCode).toBe(200);
    const text = response.body;
    for (const secret of [
      agency.accountId,
      agency.subaccountIds[0],
      agentId,
      agency.ownerId,
      'TOP-SECRET-PROMPT',
      'Secret Internal Agent',
      'Sunrise Agency',
      'Sunrise Client',
      'example.test',
      'offline',
    ]) {
      expect(text).not.toContain(secret as string);
    }
    expect(Object.keys(response.json()).sort()).toEqual(
      [
        'avatarUrl',
        'demoId',
        'logoUrl',
        'logoWidth',
        'name',
        'requestCount',
        'requestLimit',
        'settings',
        'type',
      ].sort(),
    );
  });

  it('serves the professional widget frame with the demo look and no agency data', async () => {
    const demo = await createDemo({
      settings: { widgetTitle: 'Solar <help>', themeColor: '#123456', assistantName: 'Sunny' },
    });
    const page = await api('GET', `/demo-frame/${demo.demoId}`, null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/demo-chat?demoId=');
    expect(page.body).toContain('/widget-assets/app.js');
    expect(page.body).toContain('"themeColor":"#123456"');
    expect(page.body).toContain('Solar &#60;help&#62;');
    expect(page.body).not.toContain('<help>');
    for (const secret of [agency.accountId, agentId, 'TOP-SECRET-PROMPT', 'Secret Internal Agent']) {
      expect(page.body).not.toContain(secret as string);
    }
    expect((await api('GET', '/demo-frame/dmo_missing', null)).statusCode).toBe(404);
  });

  it('chats, keeps the thread per conversation and answers with no agency data', async () => {
    const demo = await createDemo();
    const first = await chat(demo.demoId, 'Hello there', {
      history: [
        { role: 'assistant', content: '' },
        { role: 'user', content: 'Hello there' },
      ],
    });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.message.length).toBeGreaterThan(0);
    expect(body.response).toBe(body.message);
    expect(body.thread_id).toBe(body.threadId);
    expect(body.requestCount).toBe(1);
    expect(first.body).not.toContain(agentId);
    const second = await chat(demo.demoId, 'And financing?', { threadId: body.threadId });
    expect(second.json().threadId).toBe(body.threadId);
    const stored = await t.deps.db.select().from(messages).where(eq(messages.threadId, body.threadId));
    expect(stored.filter((row) => row.role === 'user').map((row) => row.content)).toEqual([
      'Hello there',
      'And financing?',
    ]);
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.id, body.threadId));
    expect(thread).toMatchObject({ channel: 'demo', channelRef: demo.demoId });
  });

  it('does not continue a thread that belongs to another demo', async () => {
    const a = await createDemo();
    const b = await createDemo();
    const threadA = (await chat(a.demoId)).json().threadId;
    const onB = (await chat(b.demoId, 'hi', { threadId: threadA })).json();
    expect(onB.threadId).not.toBe(threadA);
  });

  it('answers the section 8 errors', async () => {
    const missing = await chat('dmo_doesnotexist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Demo configuration not found. Please contact the demo creator.');
    const noDemo = await api('POST', '/api/demo-chat', null, { message: 'hi', buildId: agentId });
    expect(noDemo.statusCode).toBe(422);
    expect(noDemo.json().error.message).toBe(
      'Demo is missing configuration. Please recreate the demo from the dashboard.',
    );
    const demo = await createDemo();
    await t.deps.db.update(demos).set({ buildId: null }).where(eq(demos.id, demo.demoId));
    const orphan = await chat(demo.demoId);
    expect(orphan.json().error.message).toBe(
      'Demo is missing configuration. Please recreate the demo from the dashboard.',
    );
    const empty = await api('POST', '/api/demo-chat', null, { demoId: demo.demoId, message: '   ' });
    expect(empty.statusCode).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode).toBeLessThan(500);
  });

  it('answers 50 concurrent messages against a limit of 10 exactly 10 times', async () => {
    const demo = await createDemo({ requestLimit: 10 });
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => chat(demo.demoId, `Question ${i}`)));
    const answered = responses.filter((response) => response.statusCode === 200);
    const limited = responses.filter((response) => response.statusCode === 429);
    expect(answered).toHaveLength(10);
    expect(limited).toHaveLength(40);
    expect(limited[0]?.json().error.message).toBe(
      'Demo usage limit reached. Please contact the demo creator for a new link.',
    );
    const counts = answered.map((response) => response.json().requestCount).sort((a, b) => a - b);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const [row] = await t.deps.db.select().from(demos).where(eq(demos.id, demo.demoId));
    expect(row?.requestCount).toBe(10);
  });

  it('gives the request back when no answer is delivered', async () => {
    const demo = await createDemo({ requestLimit: 3 });
    // A thread a person has taken over gets no model answer and costs nothing.
    const first = (await chat(demo.demoId)).json();
    await setThreadHandler(t.deps.db, {
      subaccountId: agency.subaccountIds[0] as string,
      threadId: first.threadId,
      userId: agency.ownerId,
    });
    const handled = (await chat(demo.demoId, 'still there?', { threadId: first.threadId })).json();
    expect(handled).toMatchObject({ humanHandled: true, message: '', requestCount: 1 });
    const [row] = await t.deps.db.select().from(demos).where(eq(demos.id, demo.demoId));
    expect(row?.requestCount).toBe(1);
  });
});
