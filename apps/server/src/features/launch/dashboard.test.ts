import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { usageLogs } from '../billing/schema';
import { channelMessages } from '../channels/schema';
import { connections } from '../connections/schema';
import { messages, threads } from '../conversations/schema';
import { evaluationConversations, evaluationRuns } from '../evaluation/schema';
import { connectionDashboard } from './dashboard';

let t: TestApp;
let member: string;
let outsider: string;
let accountId: string;
let subaccountId: string;
let otherSubaccountId: string;
let agentId: string;
let userId: string;

/** Wednesday 1 April 2026, 10:00 UTC: the ISO week began on Monday 30 March, the month on 1 April. */
const NOW = new Date('2026-04-01T10:00:00Z');
let n = 0;
const id = (prefix: string) => {
  n += 1;
  return `${prefix}_dash${String(n).padStart(6, '0')}`;
};

const thread = async (values: { channel: string; ref?: string; sub?: string; handled?: boolean }) => {
  const threadId = id('thr');
  await t.deps.db.insert(threads).values({
    id: threadId,
    subaccountId: values.sub ?? subaccountId,
    agentId,
    channel: values.channel as 'widget',
    channelRef: values.ref ?? null,
    handledByUserId: values.handled ? userId : null,
  });
  return threadId;
};
const message = async (threadId: string, at: string, role: 'user' | 'assistant' = 'user', sub = subaccountId) =>
  t.deps.db
    .insert(messages)
    .values({ id: id('msg'), threadId, subaccountId: sub, role, content: 'x', createdAt: new Date(at) });

/** A message the SMS connection received or sent (unsent outbound ones do not count). */
const smsMessage = (
  direction: 'inbound' | 'outbound',
  source: 'agent' | 'person' | 'campaign' | 'keyword' | null,
  at: string,
  { phone = '+15551230001', sent = true } = {},
) =>
  t.deps.db.insert(channelMessages).values({
    id: id('cms'),
    subaccountId,
    connectionId: 'con_dashsms',
    direction,
    contactPhone: phone,
    body: 'x',
    status: direction === 'inbound' ? 'received' : sent ? 'sent' : 'failed',
    source,
    transport: 'sandbox',
    sentAt: direction === 'outbound' && sent ? new Date(at) : null,
    createdAt: new Date(at),
  });

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  accountId = agency.accountId;
  subaccountId = agency.subaccountIds[0] as string;
  otherSubaccountId = agency.subaccountIds[1] as string;
  userId = agency.ownerId;
  agentId = (await seedAgent(t.deps.db, { accountId, subaccountId, name: 'Solar Helper' })).id;
  member = await t.cookieFor(agency.userIds['member@demo.switchboard.local'] as string);
  outsider = await t.cookieFor(other.ownerId);

  await t.deps.db.insert(connections).values({
    id: 'con_dashwidget',
    subaccountId,
    accountId,
    type: 'website-widget',
    name: 'Solar Widget',
    widgetId: 'wgt_dashwidget',
    buildId: agentId,
    settings: { dailyLimit: 50 } as never,
    deployedSettings: { dailyLimit: 40 } as never,
  });
  const widget = await thread({ channel: 'widget', ref: 'wgt_dashwidget', handled: true });
  await message(widget, '2026-04-01T09:59:59Z'); // today
  await message(widget, '2026-04-01T00:00:00Z', 'assistant'); // today, on the boundary
  await message(widget, '2026-03-31T23:59:59.999Z'); // this week, not this month
  await message(widget, '2026-03-30T00:00:00Z', 'assistant'); // the first moment of the week
  await message(widget, '2026-03-29T23:59:59Z'); // last week: the chart only
  await message(widget, '2026-04-01T10:00:01Z'); // after the moment asked about: nowhere
  const widget2 = await thread({ channel: 'widget', ref: 'wgt_dashwidget' });
  await message(widget2, '2026-04-01T08:00:00Z');
  await t.deps.db.insert(connections).values({
    id: 'con_dashsms',
    subaccountId,
    accountId,
    type: 'sms',
    name: 'Clinic SMS',
    widgetId: 'con_dashsms',
    buildId: agentId,
    settings: {} as never,
  });
  // An SMS thread's own messages are not counted: the channel's messages are (below).
  const sms = await thread({ channel: 'sms', ref: 'con_dashsms' });
  await message(sms, '2026-04-01T06:00:00Z');
  await smsMessage('inbound', null, '2026-03-15T12:00:00Z'); // the chart only
  await smsMessage('inbound', null, '2026-03-02T23:59:59Z'); // older than 30 days: nowhere
  const test = await thread({ channel: 'test' });
  await message(test, '2026-04-01T05:00:00Z'); // the agency's own test chat: left out
  const foreign = await thread({ channel: 'widget', ref: 'wgt_dashwidget', sub: otherSubaccountId });
  await message(foreign, '2026-04-01T05:00:00Z', 'user', otherSubaccountId); // another sub-account

  const usage = (credits: number, at: string, sub = subaccountId) => ({
    id: id('use'),
    accountId,
    subaccountId: sub,
    credits,
    charged: credits,
    source: 'chat',
    idempotencyKey: id('key'),
    createdAt: new Date(at),
  });
  await t.deps.db
    .insert(usageLogs)
    .values([
      usage(1.5, '2026-04-01T01:00:00Z'),
      usage(0.25, '2026-04-01T00:00:00Z'),
      usage(2.25, '2026-03-31T12:00:00Z'),
      usage(7, '2026-04-01T01:00:00Z', otherSubaccountId),
    ]);

  const run = async (at: string, outcomes: ('passed' | 'failed' | 'error')[], status = 'completed') => {
    const runId = id('evr');
    await t.deps.db.insert(evaluationRuns).values({
      id: runId,
      evaluationId: id('evl'),
      accountId,
      subaccountId,
      name: `Run at ${at}`,
      type: 'chatcompletion',
      agentId,
      targetLabel: 'Solar Helper',
      testingModel: 'offline',
      payload: {},
      status: status as 'completed',
      total: outcomes.length,
      createdAt: new Date(at),
      finishedAt: new Date(at),
    });
    await t.deps.db.insert(evaluationConversations).values(
      outcomes.map((outcome, position) => ({
        id: id('evc'),
        runId,
        questionKey: `q${position}`,
        category: 'custom' as const,
        position,
        variation: 0,
        question: 'q',
        originalQuestion: 'q',
        successCriteria: 'c',
        whenToAsk: 0,
        transcript: [],
        answer: 'a',
        outcome,
        passed: outcome === 'passed',
        score: outcome === 'passed' ? 1 : 0,
        reasoning: 'r',
      })),
    );
    return runId;
  };
  await run('2026-03-20T00:00:00Z', ['passed', 'passed']);
  await run('2026-03-28T00:00:00Z', ['passed', 'failed', 'error']);
  await run('2026-03-30T00:00:00Z', ['failed'], 'running');
});
afterAll(() => t.close());

const by = (counts: Partial<Record<'received' | 'agent' | 'person' | 'campaign' | 'keyword', number>>) => ({
  received: 0,
  agent: 0,
  person: 0,
  campaign: 0,
  keyword: 0,
  ...counts,
});

describe('the connection dashboard', () => {
  it('counts conversations and messages per channel exactly across day, week and month boundaries', async () => {
    const figures = await connectionDashboard(t.deps.db, { subaccountId, accountId }, NOW);
    expect(figures.periods).toEqual({
      today: '2026-04-01T00:00:00.000Z',
      week: '2026-03-30T00:00:00.000Z',
      month: '2026-04-01T00:00:00.000Z',
    });
    expect(figures.channels).toEqual([
      {
        channel: 'sms',
        today: { conversations: 0, messages: 0, sources: by({}) },
        week: { conversations: 0, messages: 0, sources: by({}) },
        month: { conversations: 0, messages: 0, sources: by({}) },
      },
      {
        channel: 'widget',
        today: { conversations: 2, messages: 3, sources: by({ received: 2, agent: 1 }) },
        week: { conversations: 2, messages: 5, sources: by({ received: 3, agent: 2 }) },
        month: { conversations: 2, messages: 3, sources: by({ received: 2, agent: 1 }) },
      },
    ]);
    expect(figures.series).toEqual([
      { day: '2026-03-15', channel: 'sms', messages: 1 },
      { day: '2026-03-29', channel: 'widget', messages: 1 },
      { day: '2026-03-30', channel: 'widget', messages: 1 },
      { day: '2026-03-31', channel: 'widget', messages: 1 },
      { day: '2026-04-01', channel: 'widget', messages: 3 },
    ]);
    // Visitor messages today against the deployed daily limit.
    expect(figures.widgets).toEqual([
      {
        connectionId: 'con_dashwidget',
        name: 'Solar Widget',
        type: 'website-widget',
        todayMessages: 2,
        dailyLimit: 40,
      },
    ]);
    expect(figures.credits).toEqual({ today: 1.75, month: 1.75 });
    expect(figures.openTakeovers).toBe(1);
    // The last completed run per agent; errors are left out of the pass rate.
    expect(figures.evaluations).toEqual([
      expect.objectContaining({ agentName: 'Solar Helper', passed: 1, graded: 2, passRate: 0.5 }),
    ]);
  });

  it('counts a week that began in the previous month', async () => {
    // Tuesday 31 March: the week from Monday 30 March, the month from 1 March.
    const figures = await connectionDashboard(
      t.deps.db,
      { subaccountId, accountId },
      new Date('2026-03-31T23:59:59.999Z'),
    );
    const widget = figures.channels.find((entry) => entry.channel === 'widget');
    expect(widget).toEqual({
      channel: 'widget',
      today: { conversations: 1, messages: 1, sources: by({ received: 1 }) },
      week: { conversations: 1, messages: 2, sources: by({ received: 1, agent: 1 }) },
      month: { conversations: 1, messages: 3, sources: by({ received: 2, agent: 1 }) },
    });
    expect(figures.channels.find((entry) => entry.channel === 'sms')?.month).toEqual({
      conversations: 1,
      messages: 2,
      sources: by({ received: 2 }),
    });
    expect(figures.credits).toEqual({ today: 2.25, month: 2.25 });
  });

  it('counts every message an SMS channel sent and received, by who sent it', async () => {
    const day = '2026-04-02T';
    const at = new Date(`${day}12:00:00Z`);
    // A campaign of 50, one reply answered by the agent and then a person, a STOP and its confirmation.
    for (let i = 0; i < 50; i += 1)
      await smsMessage('outbound', 'campaign', `${day}09:00:00Z`, { phone: `+1555999${String(i).padStart(4, '0')}` });
    await smsMessage('outbound', 'campaign', `${day}09:00:01Z`, { phone: '+15559998888', sent: false });
    await smsMessage('inbound', null, `${day}10:00:00Z`, { phone: '+15559990001' });
    await smsMessage('outbound', 'agent', `${day}10:00:01Z`, { phone: '+15559990001' });
    await smsMessage('outbound', 'person', `${day}10:05:00Z`, { phone: '+15559990001' });
    await smsMessage('inbound', null, `${day}10:10:00Z`, { phone: '+15559990002' });
    await smsMessage('outbound', 'keyword', `${day}10:10:01Z`, { phone: '+15559990002' });
    const figures = await connectionDashboard(t.deps.db, { subaccountId, accountId }, at);
    const sms = figures.channels.find((entry) => entry.channel === 'sms');
    expect(sms?.today).toEqual({
      conversations: 2,
      messages: 55,
      sources: by({ received: 2, agent: 1, person: 1, campaign: 50, keyword: 1 }),
    });
    expect(figures.series).toContainEqual({ day: '2026-04-02', channel: 'sms', messages: 55 });
  });

  it('answers members of the sub-account and 404 to another tenant', async () => {
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/connect/${subaccountId}/dashboard`,
      headers: { cookie: member },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().widgets[0].connectionId).toBe('con_dashwidget');
    const byConnection = await t.app.inject({
      method: 'GET',
      url: '/api/connect/con_dashwidget/dashboard',
      headers: { cookie: member },
    });
    expect(byConnection.json().subaccountId).toBe(subaccountId);
    for (const connectId of [subaccountId, 'con_dashwidget']) {
      const foreign = await t.app.inject({
        method: 'GET',
        url: `/api/connect/${connectId}/dashboard`,
        headers: { cookie: outsider },
      });
      expect(foreign.statusCode).toBe(404);
    }
  });
});
