import type { TCampaign } from '@switchboard/core';
import { and, eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { getJob } from '../../platform/jobs';
import { jobs } from '../../platform/jobs.schema';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { scheduleDispatchRound } from './campaign-rounds';
import { findChannel } from './connections';
import { queueOutbound } from './outbound';
import { campaigns, channelMessages, contacts } from './schema';

/**
 * Campaigns under faults, with the job workers and the campaign watch running: an authentication
 * failure mid-campaign, the channel paused mid-dispatch, a dispatch that fails for good, a campaign
 * left sending without a job.
 */
const PUBLIC_URL = 'https://switchboard.example.com';
const SENDER = '+15557654321';
let t: TestApp;
let stub: TwilioStub;
let cookie: string;
let subaccountId: string;
let connectionId: string;
let authToken = TEST_AUTH_TOKEN;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const campaignUrl = (id: string) => `/api/channels/${connectionId}/campaigns/${id}`;
const report = async (id: string): Promise<TCampaign> => (await api('GET', campaignUrl(id))).json();
const waitFor = (id: string, ok: (campaign: TCampaign) => boolean) => until(() => report(id), ok, 20_000);

let phoneSerial = 0;
const seedContacts = async (tag: string, count: number) => {
  const phones = Array.from({ length: count }, () => `+1415700${String(1000 + phoneSerial++)}`);
  await t.deps.db
    .insert(contacts)
    .values(phones.map((phone) => ({ id: newId('contact'), subaccountId, phone, tags: [tag] })));
  return phones;
};

const draft = async (tag: string) => {
  const created = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: `Holds ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Your appointment reminder, {{phone}}.',
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().campaignId as string;
};

/** Messages the provider accepted, per number of the list. */
const sentCounts = (phones: string[]) =>
  phones.map((phone) => stub.messages.filter((message) => message.params.To === phone).length);
const sentToAny = (phones: string[]) => sentCounts(phones).reduce((sum, n) => sum + n, 0);

const setRate = (perSecond: number) => api('PATCH', `/api/channels/${connectionId}`, { sendRatePerSecond: perSecond });

beforeAll(async () => {
  stub = await startTwilioStub();
  t = await startTestApp({ TWILIO_API_URL: stub.url, PUBLIC_URL, JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Holds' });
  cookie = await t.cookieFor(agency.ownerId);
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken },
    sender: { phoneNumber: SENDER },
    sendRatePerSecond: 0,
  });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
});
afterAll(async () => {
  stub.onMessage = null;
  await t.close();
  await stub.close();
});

describe('the channel paused in Launch mid-dispatch', () => {
  it('stops the campaign at the batch, answers no inbound message, and goes on once it is active again', async () => {
    // Five a second, five a batch: the pause lands while the campaign is under way.
    await setRate(5);
    const phones = await seedContacts('pause', 15);
    const id = await draft('pause');
    stub.onMessage = (message) => {
      if (phones.includes(String(message.params.To)) && sentToAny(phones) === 3)
        void api('POST', `/api/launch/connections/${connectionId}/pause`);
    };
    expect((await api('POST', `${campaignUrl(id)}/start`)).statusCode).toBe(200);
    const held = await waitFor(id, (c) => c.status === 'paused');
    expect(held).toMatchObject({ status: 'paused', hold: { reason: 'channel_paused', code: 'CONNECTION_INACTIVE' } });
    const sentBeforePause = sentToAny(phones);
    expect(sentBeforePause).toBeLessThan(phones.length);
    // A resume of the campaign itself is refused while the channel is paused.
    const resume = await api('POST', `${campaignUrl(id)}/resume`);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error.code).toBe('CONNECTION_INACTIVE');

    // A person writes meanwhile: stored, not answered; an answer queued before the pause is not sent.
    const params = {
      MessageSid: `SM${'7'.repeat(32)}`,
      AccountSid: TEST_ACCOUNT_SID,
      From: '+15551239999',
      To: SENDER,
      Body: 'Is the offer still on?',
    };
    const url = `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`;
    const inbound = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio/${connectionId}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(authToken, url, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
    expect(inbound.statusCode).toBe(200);
    const channel = await findChannel(t.deps.db, connectionId);
    if (!channel) throw new Error('no channel');
    const [queued] = await queueOutbound(t.deps, channel, {
      to: '+15551239999',
      parts: ['An answer queued just before the pause'],
      key: 'test:queued-before-pause',
      origin: 'live',
    });
    const refused = await until(
      async () =>
        (
          await t.deps.db
            .select()
            .from(channelMessages)
            .where(eq(channelMessages.id, queued as string))
        )[0],
      (row) => row?.status === 'failed',
    );
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'CONNECTION_INACTIVE' });
    const answered = await until(
      () =>
        t.deps.db
          .select({ status: jobs.status, result: jobs.result })
          .from(jobs)
          .where(and(eq(jobs.type, 'channel:inbound'), sql`${jobs.payload}->>'messageId' IS NOT NULL`)),
      (rows) => rows.length > 0 && rows.every((row) => row.status === 'succeeded'),
    );
    expect(answered.map((row) => row.result)).toEqual([{ skipped: 'connection_paused' }]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sentToAny(phones)).toBe(sentBeforePause);
    expect(stub.messages.filter((message) => message.params.To === '+15551239999')).toHaveLength(0);

    stub.onMessage = null;
    expect((await api('POST', `/api/launch/connections/${connectionId}/resume`)).statusCode).toBe(200);
    const done = await waitFor(id, (c) => c.status === 'completed');
    expect(done).toMatchObject({ status: 'completed', hold: null, figures: { sent: 15, failed: 0 } });
    expect(sentCounts(phones)).toEqual(phones.map(() => 1));
    await setRate(0);
  });
});

describe('Twilio refusing the credentials mid-campaign (401, 20003)', () => {
  it('pauses the campaign without failing anyone, marks the channel, and completes once they are updated', async () => {
    const phones = await seedContacts('revoked', 12);
    const id = await draft('revoked');
    // The auth token is revoked at Twilio after the fourth message.
    stub.onMessage = (message) => {
      if (phones.includes(String(message.params.To)) && sentToAny(phones) === 4)
        stub.credentials.set(TEST_ACCOUNT_SID, 'revoked'.padEnd(32, '0'));
    };
    expect((await api('POST', `${campaignUrl(id)}/start`)).statusCode).toBe(200);
    const held = await waitFor(id, (c) => c.status === 'paused');
    expect(held).toMatchObject({
      status: 'paused',
      hold: { reason: 'auth_failed', code: 'TWILIO_AUTH_FAILED' },
      figures: { total: 12, sent: 4, failed: 0, queued: 8 },
    });
    expect(held.failures).toEqual([]);
    const channel = (await api('GET', `/api/channels/${connectionId}`)).json();
    expect(channel).toMatchObject({ status: 'error', statusCode: 'TWILIO_AUTH_FAILED' });
    const resume = await api('POST', `${campaignUrl(id)}/resume`);
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error.code).toBe('TWILIO_AUTH_FAILED');

    // New credentials: checked with Twilio, saved, and the campaign goes on where it stopped.
    stub.onMessage = null;
    authToken = 'a'.repeat(32);
    stub.credentials.set(TEST_ACCOUNT_SID, authToken);
    const updated = await api('PATCH', `/api/channels/${connectionId}`, {
      twilio: { accountSid: TEST_ACCOUNT_SID, authToken },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ status: 'live', statusCode: null });
    const done = await waitFor(id, (c) => c.status === 'completed');
    expect(done).toMatchObject({ hold: null, figures: { total: 12, sent: 12, failed: 0 } });
    expect(sentCounts(phones)).toEqual(phones.map(() => 1));
  });
});

describe('a dispatch that fails', () => {
  it('is retried with backoff, and when it fails for good the campaign is paused with the error, not left sending', async () => {
    await seedContacts('broken', 3);
    const id = await draft('broken');
    // The database refuses every write of this campaign's recipients, on every run.
    await t.deps.db.execute(
      sql.raw(`CREATE FUNCTION refuse_broken() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`),
    );
    await t.deps.db.execute(
      sql.raw(`CREATE TRIGGER refuse_broken BEFORE INSERT ON campaign_recipients FOR EACH ROW
        WHEN (NEW.campaign_id = '${id}') EXECUTE FUNCTION refuse_broken()`),
    );
    const [row] = await t.deps.db.select().from(campaigns).where(eq(campaigns.id, id));
    if (!row) throw new Error('no campaign');
    await t.deps.db.transaction(async (tx) => {
      await scheduleDispatchRound(t.deps, tx, row);
      // Two runs instead of ten, so the test does not wait out the whole backoff.
      await tx
        .update(jobs)
        .set({ maxAttempts: 2 })
        .where(eq(jobs.idempotencyKey, `campaign:${id}:1`));
    });
    const held = await waitFor(id, (c) => c.status !== 'sending');
    expect(held).toMatchObject({ status: 'paused', hold: { reason: 'dispatch_failed', code: 'MESSAGE_SEND_FAILED' } });
    expect(held.hold?.message).toMatch(/Sending stopped after repeated failures .*No space left on device.*Resume/);
    // The handler holds the campaign, then its worker records the job's end.
    const [job] = await until(
      () =>
        t.deps.db
          .select()
          .from(jobs)
          .where(eq(jobs.idempotencyKey, `campaign:${id}:1`)),
      ([row]) => row?.status !== 'running',
    );
    expect(job).toMatchObject({ status: 'failed', attempts: 2 });
    await t.deps.db.execute(sql.raw('DROP TRIGGER refuse_broken ON campaign_recipients'));
  });

  it('never leaves a campaign sending without a job: the watch queues one', async () => {
    const phones = await seedContacts('stranded', 4);
    const id = await draft('stranded');
    // Sending, and its round's job failed for good (a process killed on each of its runs).
    const [row] = await t.deps.db.select().from(campaigns).where(eq(campaigns.id, id));
    if (!row) throw new Error('no campaign');
    await t.deps.db.transaction(async (tx) => {
      await scheduleDispatchRound(t.deps, tx, row);
      await tx
        .update(jobs)
        .set({ status: 'failed', error: 'The job stopped too many times', runAt: new Date(Date.now() + 3_600_000) })
        .where(eq(jobs.idempotencyKey, `campaign:${id}:1`));
    });
    const done = await waitFor(id, (c) => c.status === 'completed');
    expect(done).toMatchObject({ status: 'completed', figures: { sent: 4 } });
    expect(sentCounts(phones)).toEqual([1, 1, 1, 1]);
    // The handler completes the campaign, then its worker records the job's end.
    const [requeued] = await until(
      () =>
        t.deps.db
          .select()
          .from(jobs)
          .where(eq(jobs.idempotencyKey, `campaign:${id}:2`)),
      ([row]) => row !== undefined && row.status !== 'queued' && row.status !== 'running',
    );
    expect(await getJob(t.deps, requeued?.id ?? '')).toMatchObject({ status: 'succeeded' });
  });
});
