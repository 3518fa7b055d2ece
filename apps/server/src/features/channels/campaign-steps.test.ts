/**
 * Sequences: a campaign of several steps with delays, sent through the sandbox by the real job
 * workers. Time is moved on by making the waiting steps (and the dispatch job queued for them) due.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { campaignStepSends } from './campaign-steps.schema';
import { channelMessages } from './schema';

let t: TestApp;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const campaignsUrl = () => `/api/channels/${connectionId}/campaigns`;

type StepView = { step: number; figures: Record<string, number> };
const view = async (id: string) => (await api('GET', `${campaignsUrl()}/${id}`)).json();
const stepFigures = async (id: string) =>
  Object.fromEntries(((await view(id)).sequence?.steps ?? []).map((s: StepView) => [s.step, s.figures])) as Record<
    number,
    Record<string, number>
  >;
const waitFor = <T>(read: () => Promise<T>, ok: (value: T) => boolean) => until(read, ok, 20_000);

let serial = 0;
const contactsTagged = async (tag: string, names: string[]) => {
  const phones: string[] = [];
  for (const name of names) {
    const phone = `+1415777${String(1000 + serial++)}`;
    const res = await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, name, tags: [tag] });
    expect(res.statusCode, res.body).toBe(201);
    phones.push(phone);
  }
  return phones;
};

const createSequence = async (tag: string, extra: Record<string, unknown>) => {
  const res = await api('POST', campaignsUrl(), {
    name: `Sequence ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Hi {{first_name}}, our spring offer is on.',
    quietHours: null,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().campaignId as string;
};

/** As if the steps' delays had passed: the waiting steps and the dispatch job queued for them are due now. */
const timePasses = async (campaignId: string) => {
  // The run that wrote the waiting steps queues its next dispatch as it ends: wait for that job first.
  await until(
    async () =>
      rowsOf<{ queued: number; running: number }>(
        await t.deps.db.execute(sql`
          SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
            count(*) FILTER (WHERE status = 'running')::int AS running
          FROM jobs WHERE idempotency_key LIKE ${`campaign:${campaignId}:%`}`),
      )[0],
    (jobs) => jobs !== undefined && jobs.queued > 0 && jobs.running === 0,
    20_000,
  );
  await t.deps.db.execute(sql`
    UPDATE campaign_step_sends SET due_at = due_at - interval '100 days', next_attempt_at = now() - interval '1 second'
    WHERE campaign_id = ${campaignId} AND status = 'queued'`);
  await t.deps.db.execute(sql`
    UPDATE jobs SET run_at = now() WHERE status = 'queued' AND idempotency_key LIKE ${`campaign:${campaignId}:%`}`);
};

const reply = (from: string, body: string) =>
  api('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from, body }).then((res) =>
    expect(res.statusCode).toBe(202),
  );

const messagesTo = async (campaignId: string, phone: string) =>
  (
    await t.deps.db
      .select({ body: channelMessages.body })
      .from(channelMessages)
      .where(and(eq(channelMessages.campaignId, campaignId), eq(channelMessages.contactPhone, phone)))
  ).map((row) => row.body);

const stepRows = (campaignId: string) =>
  t.deps.db.select().from(campaignStepSends).where(eq(campaignStepSends.campaignId, campaignId));

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_MS: '20', PUBLIC_URL: 'https://switchboard.example.com' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other sequences',
    owner: { email: 'other-sequences@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Drip Helper' });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  const created = await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
});

afterAll(async () => {
  await t?.close();
});

describe('sequence payloads', () => {
  it('refuses steps a sequence cannot run with a 422 naming the field, writing nothing', async () => {
    await contactsTagged('check', ['Ada Lovelace']);
    const base = {
      name: 'Checks',
      audience: { type: 'tags', tags: ['check'] },
      message: 'Hi',
      quietHours: null,
    };
    const step = { delay: { amount: 1, unit: 'days' }, condition: 'all', message: 'Again' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ steps: Array.from({ length: 10 }, () => step) }, 'body.steps', 'at most 10 steps'],
      [
        { steps: [{ ...step, delay: { amount: 0, unit: 'minutes' } }] },
        'body.steps.0.delay.amount',
        'at least 1 minute',
      ],
      [{ steps: [{ ...step, delay: { amount: 91, unit: 'days' } }] }, 'body.steps.0.delay.amount', 'at most 90 days'],
      [{ steps: [{ ...step, delay: { amount: 1.5, unit: 'hours' } }] }, 'body.steps.0.delay.amount', 'whole number'],
      [
        { steps: [{ ...step, delay: { amount: 2, unit: 'weeks' } }] },
        'body.steps.0.delay.unit',
        'minutes, hours or days',
      ],
      [{ steps: [{ ...step, message: ' ' }] }, 'body.steps.0.message', 'Write the message of this step'],
      [{ steps: [{ ...step, condition: 'replied' }] }, 'steps.0.condition', 'Stop on reply'],
      [{ steps: [step, { ...step, message: 'Hi {{nickname}}' }] }, 'steps.1.message', '{{nickname}} in step 3'],
    ];
    const before = (await api('GET', campaignsUrl())).json().campaigns.length;
    for (const [extra, field, message] of cases) {
      const res = await api('POST', campaignsUrl(), { ...base, ...extra });
      expect(res.statusCode, field).toBe(422);
      expect(JSON.stringify(res.json().error), field).toContain(field);
      expect(res.json().error.message, field).toContain(message);
    }
    expect((await api('GET', campaignsUrl())).json().campaigns.length).toBe(before);

    // 90 days is allowed, and a reply branch once replies no longer end the sequence.
    const ok = await api('POST', campaignsUrl(), {
      ...base,
      stopOnReply: false,
      steps: [{ ...step, delay: { amount: 90, unit: 'days' }, condition: 'replied' }],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().sequence).toMatchObject({
      stopOnReply: false,
      stopOnGoal: true,
      steps: [
        { step: 1, delay: null, condition: 'all', message: 'Hi' },
        { step: 2, delay: { amount: 90, unit: 'days' }, condition: 'replied', message: 'Again' },
      ],
    });
    // An update without steps keeps them; turning "Stop on reply" back on is refused while a reply branch exists.
    const id = ok.json().campaignId;
    const renamed = await api('PUT', `${campaignsUrl()}/${id}`, { ...base, name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().sequence.steps).toHaveLength(2);
    const refused = await api('PUT', `${campaignsUrl()}/${id}`, { ...base, stopOnReply: true });
    expect(refused.statusCode).toBe(422);
    const cleared = await api('PUT', `${campaignsUrl()}/${id}`, { ...base, steps: [] });
    expect(cleared.json().sequence).toBeNull();
    // Another tenant sees nothing.
    expect((await api('GET', `${campaignsUrl()}/${id}`, undefined, outsider)).statusCode).toBe(404);
  });
});

describe('a sequence on the sandbox', () => {
  it('sends each step after its delay, and a reply, an opt-out or the goal takes a recipient out', async () => {
    const [replier, stopper, buyer, quiet] = (await contactsTagged('drip', ['Ada A', 'Bob B', 'Cy C', 'Dee D'])) as [
      string,
      string,
      string,
      string,
    ];
    const id = await createSequence('drip', {
      steps: [
        {
          delay: { amount: 2, unit: 'days' },
          condition: 'all',
          message: 'Reminder {{first_name}}: https://shop.example.org/spring',
        },
        { delay: { amount: 1, unit: 'hours' }, condition: 'not_replied', message: 'Last call, {{first_name}}.' },
      ],
    });
    expect((await api('POST', `${campaignsUrl()}/${id}/start`)).statusCode).toBe(200);
    // Step 1 goes to all four; each waits for step 2, two days later.
    const waiting = await waitFor(
      () => stepFigures(id),
      (f) => f[1]?.sent === 4 && f[2]?.waiting === 4,
    );
    expect(waiting[1]).toMatchObject({ sent: 4, delivered: 4 });
    const rows = await stepRows(id);
    expect(rows.every((row) => row.dueAt.getTime() > Date.now() + 47 * 3600_000)).toBe(true);
    expect((await view(id)).status).toBe('sending');

    await reply(replier, 'Tell me more');
    await reply(stopper, 'STOP');
    const conversion = await api('POST', `${campaignsUrl()}/${id}/conversions`, { phone: buyer, value: 40 });
    expect(conversion.statusCode, conversion.body).toBe(201);
    const left = await waitFor(
      () => stepFigures(id),
      (f) => f[1]?.left === 3,
    );
    expect(left[1]).toMatchObject({ sent: 4, replied: 1, converted: 1, left: 3 });
    expect((await stepRows(id)).map((row) => row.skipReason).sort()).toEqual([
      'LEFT_GOAL',
      'LEFT_OPTED_OUT',
      'LEFT_REPLIED',
      null,
    ]);

    await timePasses(id);
    await waitFor(
      () => stepFigures(id),
      (f) => f[2]?.sent === 1 && f[3]?.waiting === 1,
    );
    await timePasses(id);
    const done = await waitFor(
      () => view(id),
      (body) => body.status === 'completed',
    );
    expect(done.status).toBe('completed');
    const figures = Object.fromEntries(done.sequence.steps.map((s: StepView) => [s.step, s.figures]));
    expect(figures[2]).toMatchObject({ sent: 1, delivered: 1, waiting: 0 });
    expect(figures[3]).toMatchObject({ sent: 1, waiting: 0 });
    expect(await messagesTo(id, quiet)).toEqual([
      'Hi Dee, our spring offer is on.',
      expect.stringMatching(/^Reminder Dee: https:\/\/switchboard\.example\.com\/l\/\w+$/),
      'Last call, Dee.',
    ]);
    for (const phone of [replier, stopper, buyer]) expect(await messagesTo(id, phone)).toHaveLength(1);
    // The later steps join the contact's conversation in the inbox.
    const threaded = await t.deps.db
      .select({ threadId: channelMessages.threadId })
      .from(channelMessages)
      .where(and(eq(channelMessages.campaignId, id), eq(channelMessages.contactPhone, quiet)));
    expect(threaded.every((row) => row.threadId)).toBe(true);
  });

  it('branches on reply when replies do not end the sequence', async () => {
    const [answered, silent] = (await contactsTagged('branch', ['Eve E', 'Fay F'])) as [string, string];
    const id = await createSequence('branch', {
      stopOnReply: false,
      steps: [
        {
          delay: { amount: 30, unit: 'minutes' },
          condition: 'replied',
          message: 'Thanks for answering, {{first_name}}!',
        },
        { delay: { amount: 1, unit: 'days' }, condition: 'not_replied', message: 'Still interested, {{first_name}}?' },
      ],
    });
    expect((await api('POST', `${campaignsUrl()}/${id}/start`)).statusCode).toBe(200);
    await waitFor(
      () => stepFigures(id),
      (f) => f[2]?.waiting === 2,
    );
    await reply(answered, 'Yes please');
    await waitFor(
      () => stepFigures(id),
      (f) => f[1]?.replied === 1,
    );
    await timePasses(id);
    // Both go on to the third step. The one the second step did not pick is due a day after that
    // step's time, which was moved back with the rest: sent at once. The other waits a day from
    // its second message.
    const second = await waitFor(
      () => stepFigures(id),
      (f) => f[2]?.sent === 1 && f[2]?.notPicked === 1 && f[3]?.waiting === 1 && f[3]?.sent === 1,
    );
    expect(second[2]).toMatchObject({ sent: 1, notPicked: 1, left: 0 });
    expect(second[3]).toMatchObject({ waiting: 1, sent: 1 });
    await timePasses(id);
    const done = await waitFor(
      () => view(id),
      (body) => body.status === 'completed',
    );
    const figures = Object.fromEntries(done.sequence.steps.map((s: StepView) => [s.step, s.figures]));
    expect(figures[3]).toMatchObject({ sent: 1, notPicked: 1 });
    expect(await messagesTo(id, answered)).toEqual(['Hi Eve, our spring offer is on.', 'Thanks for answering, Eve!']);
    expect(await messagesTo(id, silent)).toEqual(['Hi Fay, our spring offer is on.', 'Still interested, Fay?']);
  });

  it('holds the next steps while the campaign is paused, and sends them once resumed', async () => {
    const [phone] = (await contactsTagged('hold', ['Gus G'])) as [string];
    const id = await createSequence('hold', {
      steps: [{ delay: { amount: 5, unit: 'minutes' }, condition: 'all', message: 'Step two, {{first_name}}.' }],
    });
    expect((await api('POST', `${campaignsUrl()}/${id}/start`)).statusCode).toBe(200);
    await waitFor(
      () => stepFigures(id),
      (f) => f[2]?.waiting === 1,
    );
    expect((await api('POST', `${campaignsUrl()}/${id}/pause`)).statusCode).toBe(200);
    await timePasses(id);
    // The round's job runs, finds the campaign paused and sends nothing.
    await until(
      async () =>
        rowsOf<{ n: number }>(
          await t.deps.db.execute(
            sql`SELECT count(*)::int AS n FROM jobs WHERE status = 'queued' AND idempotency_key LIKE ${`campaign:${id}:%`}`,
          ),
        )[0]?.n,
      (n) => n === 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stepFigures(id))[2]).toMatchObject({ sent: 0, waiting: 1 });
    expect(await messagesTo(id, phone)).toHaveLength(1);
    expect((await api('POST', `${campaignsUrl()}/${id}/resume`)).statusCode).toBe(200);
    const done = await waitFor(
      () => view(id),
      (body) => body.status === 'completed',
    );
    expect(done.sequence.steps[1].figures).toMatchObject({ sent: 1 });
    expect(await messagesTo(id, phone)).toEqual(['Hi Gus, our spring offer is on.', 'Step two, Gus.']);
  });

  it('takes out a recipient who clicked a tracked link of the campaign (the goal)', async () => {
    const [clicker, other] = (await contactsTagged('goal', ['Hal H', 'Ivy I'])) as [string, string];
    const id = await createSequence('goal', {
      message: 'Hi {{first_name}}, book here: https://dental.example.org/book',
      steps: [{ delay: { amount: 1, unit: 'days' }, condition: 'all', message: 'Did you see it, {{first_name}}?' }],
    });
    expect((await api('POST', `${campaignsUrl()}/${id}/start`)).statusCode).toBe(200);
    await waitFor(
      () => stepFigures(id),
      (f) => f[2]?.waiting === 2,
    );
    const [sent] = await messagesTo(id, clicker);
    const code = sent?.match(/\/l\/(\w+)/)?.[1];
    const visit = await t.app.inject({ method: 'GET', url: `/l/${code}` });
    expect(visit.statusCode).toBe(302);
    const left = await waitFor(
      () => stepFigures(id),
      (f) => f[1]?.left === 1,
    );
    expect(left[1]).toMatchObject({ converted: 1, left: 1 });
    await timePasses(id);
    await waitFor(
      () => view(id),
      (body) => body.status === 'completed',
    );
    expect(await messagesTo(id, clicker)).toHaveLength(1);
    expect(await messagesTo(id, other)).toHaveLength(2);
  });
});
