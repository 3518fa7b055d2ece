import { and, count, eq } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { connections } from '../connections/schema';
import { threads } from '../conversations/schema';
import { channelAccounts, channelMessages, channelSuppressions } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
let t: TestApp;
let stub: TwilioStub;
let admin: string;
let outsider: string;
let subaccountId: string;
let agentId: string;
let connectionId: string;

/** Posts a webhook as Twilio does: form-encoded, signed with the SDK's own function (or not). */
const webhook = (id: string, params: Record<string, string>, sign: 'good' | 'bad' | 'none' = 'good') => {
  const url = `${PUBLIC_URL}/api/webhooks/twilio/${id}`;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (sign !== 'none')
    headers['x-twilio-signature'] =
      sign === 'good' ? twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, url, params) : 'bm90IGEgc2lnbmF0dXJl';
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/twilio/${id}`,
    headers,
    payload: new URLSearchParams(params).toString(),
  });
};

const inbound = (from: string, body: string, sid: string) => ({
  MessageSid: sid,
  SmsSid: sid,
  AccountSid: TEST_ACCOUNT_SID,
  From: from,
  To: '+15557654321',
  Body: body,
  NumMedia: '0',
  SmsStatus: 'received',
});

const sentTo = (phone: string) => stub.messages.filter((message) => message.params.To === phone);

beforeAll(async () => {
  stub = await startTwilioStub();
  t = await startTestApp({ TWILIO_API_URL: stub.url, PUBLIC_URL, JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Clinic Helper' })).id;
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

describe('an SMS agent on Twilio', () => {
  it('refuses wrong credentials with TWILIO_AUTH_FAILED and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/channels',
      headers: { cookie: admin },
      payload: {
        subaccountId,
        type: 'sms',
        buildId: agentId,
        twilio: { accountSid: TEST_ACCOUNT_SID, authToken: 'e'.repeat(32) },
        sender: { phoneNumber: '+15557654321' },
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('TWILIO_AUTH_FAILED');
    const [{ n } = { n: -1 }] = await t.deps.db
      .select({ n: count() })
      .from(connections)
      .where(eq(connections.type, 'sms'));
    expect(n).toBe(0);
  });

  it('verifies the credentials with a cheap call, stores the token encrypted and shows the webhook URL', async () => {
    const before = stub.requests.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/channels',
      headers: { cookie: admin },
      payload: {
        subaccountId,
        type: 'sms',
        buildId: agentId,
        twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
        sender: { phoneNumber: '+15557654321' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    connectionId = body.connectionId;
    expect(body).toMatchObject({
      transport: 'twilio',
      accountSid: TEST_ACCOUNT_SID,
      secretLast4: 'ffff',
      webhookUrl: `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`,
    });
    expect(JSON.stringify(body)).not.toContain(TEST_AUTH_TOKEN);
    expect(stub.requests.slice(before)).toEqual([
      { method: 'GET', path: `/2010-04-01/Accounts/${TEST_ACCOUNT_SID}.json` },
    ]);
    const [stored] = await t.deps.db
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.connectionId, connectionId));
    expect(stored?.secretEncrypted).toMatch(/^v1:/);
    expect(stored?.secretEncrypted).not.toContain(TEST_AUTH_TOKEN);
  });

  it('refuses unsigned and wrongly signed webhooks with 403 and stores nothing; unknown ids are 404', async () => {
    for (const sign of ['none', 'bad'] as const) {
      const res = await webhook(connectionId, inbound('+15551230001', 'Hello', `SM${'1'.repeat(32)}`), sign);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('WEBHOOK_VALIDATION_FAILED');
    }
    // Signed for another path: refused too.
    const params = inbound('+15551230001', 'Hello', `SM${'1'.repeat(32)}`);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio/${connectionId}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, `${PUBLIC_URL}/elsewhere`, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
    expect(forged.statusCode).toBe(403);
    const unknown = await webhook('con_doesnotexist', params);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('WEBHOOK_NOT_FOUND');
    const [{ n } = { n: -1 }] = await t.deps.db.select({ n: count() }).from(channelMessages);
    expect(n).toBe(0);
  });

  it('answers a signed inbound message through the agent, once, in the contact thread', async () => {
    const sid = `SM${'2'.repeat(32)}`;
    const res = await webhook(connectionId, inbound('+15551230002', 'What are your opening hours?', sid));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    const again = await webhook(connectionId, inbound('+15551230002', 'What are your opening hours?', sid));
    expect(again.statusCode).toBe(200);
    const sent = await until(
      async () => sentTo('+15551230002'),
      (list) => list.length > 0,
    );
    expect(sent[0]?.params).toMatchObject({
      From: '+15557654321',
      StatusCallback: `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const inboundRows = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.direction, 'inbound'), eq(channelMessages.providerSid, sid)));
    expect(inboundRows).toHaveLength(1);
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, '+15551230002'));
    expect(thread).toMatchObject({ channel: 'sms', channelRef: connectionId, agentId });
    // Every part of the answer went out once.
    const outbound = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.direction, 'outbound'), eq(channelMessages.contactPhone, '+15551230002')));
    expect(sentTo('+15551230002')).toHaveLength(outbound.length);

    // The status callback marks it delivered.
    const report = await webhook(connectionId, {
      MessageSid: sent[0]?.sid as string,
      MessageStatus: 'delivered',
      AccountSid: TEST_ACCOUNT_SID,
      To: '+15551230002',
      From: '+15557654321',
    });
    expect(report.statusCode).toBe(200);
    const [row] = await t.deps.db
      .select()
      .from(channelMessages)
      .where(eq(channelMessages.providerSid, sent[0]?.sid as string));
    expect(row?.status).toBe('delivered');
  });

  it('retries a 429 after its Retry-After and still sends once; a 400 is final with its error code', async () => {
    stub.failNext({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 });
    await webhook(connectionId, inbound('+15551230003', 'Hi there', `SM${'3'.repeat(32)}`));
    const sent = await until(
      async () => sentTo('+15551230003'),
      (list) => list.length > 0,
      15_000,
    );
    expect(sent.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rows = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.direction, 'outbound'), eq(channelMessages.contactPhone, '+15551230003')));
    expect(sentTo('+15551230003')).toHaveLength(rows.length);
    expect(rows[0]?.attempts).toBe(3);

    await webhook(connectionId, inbound('+15005550001', 'Hello', `SM${'4'.repeat(32)}`));
    const failed = await until(
      async () =>
        t.deps.db
          .select()
          .from(channelMessages)
          .where(and(eq(channelMessages.direction, 'outbound'), eq(channelMessages.contactPhone, '+15005550001'))),
      (list) => list.some((row) => row.status === 'failed'),
    );
    expect(failed[0]).toMatchObject({ status: 'failed', errorCode: '21211', attempts: 1 });
  });

  it('STOP opts the number out (Twilio confirms it on SMS): the agent answers nothing until START', async () => {
    const phone = '+15551230005';
    await webhook(connectionId, inbound(phone, 'STOP', `SM${'5'.repeat(32)}`));
    const suppressed = await until(
      async () => t.deps.db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, phone)),
      (rows) => rows.length > 0,
    );
    expect(suppressed[0]).toMatchObject({ sender: 'sms:+15557654321', connectionId, keyword: 'STOP' });
    await webhook(connectionId, inbound(phone, 'Are you open?', `SM${'6'.repeat(32)}`));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(sentTo(phone)).toHaveLength(0);
    await webhook(connectionId, inbound(phone, 'START', `SM${'7'.repeat(32)}`));
    await until(
      async () => t.deps.db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, phone)),
      (rows) => rows.length === 0,
    );
    await webhook(connectionId, inbound(phone, 'Are you open now?', `SM${'8'.repeat(32)}`));
    expect(
      (
        await until(
          async () => sentTo(phone),
          (list) => list.length > 0,
        )
      ).length,
    ).toBeGreaterThan(0);
  });

  it('answers 404 for another tenant, malformed webhooks with clear errors', async () => {
    const foreign = await t.app.inject({ url: `/api/channels/${connectionId}`, headers: { cookie: outsider } });
    expect(foreign.statusCode).toBe(404);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/channels/${connectionId}`,
      headers: { cookie: outsider },
      payload: { sendRatePerSecond: 5 },
    });
    expect(patch.statusCode).toBe(404);
    const noSid = await webhook(connectionId, { From: '+15551230009', Body: 'x' });
    expect(noSid.statusCode).toBe(422);
    expect(noSid.json().error.code).toBe('WEBHOOK_MISSING_MESSAGE');
    const badFrom = await webhook(connectionId, inbound('not-a-number', 'x', `SM${'9'.repeat(32)}`));
    expect(badFrom.statusCode).toBe(422);
    expect(badFrom.json().error.code).toBe('MESSAGE_INVALID_NUMBER');
  });
});
