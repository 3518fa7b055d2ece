/**
 * No silent messaging sandbox in production: without MESSAGING_SANDBOX=true a connection needs
 * credentials, the sandbox phone is refused, and a sandbox connection left from before sends nothing
 * and reports nothing sent. Where the sandbox runs, what it "sent" says so.
 */
import { SANDBOX_NOTICE } from '@switchboard/core';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { connections } from '../connections/schema';
import { type Channel, findChannel } from './connections';
import { humanReplyDelivery, type MessageRow, sendStored } from './outbound';
import { campaignRecipients, channelAccounts, channelMessages } from './schema';

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://switchboard.example.com',
  ENCRYPTION_KEY: 'ab'.repeat(32),
  JOB_POLL_MS: '20',
};
const apps: TestApp[] = [];
let stub: TwilioStub;

/** A production-like app with the demo agency, its owner's cookie and an agent. */
const open = async (env: Record<string, string>) => {
  const t = await startTestApp({ ...env, TWILIO_API_URL: stub.url });
  apps.push(t);
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' });
  const cookie = await t.cookieFor(agency.ownerId);
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  return { t, api, subaccountId, accountId: agency.accountId, agentId: agent.id };
};

const launchRecord = async (api: Awaited<ReturnType<typeof open>>['api'], connectionId: string) =>
  (await api('GET', '/api/launch'))
    .json()
    .subaccounts.flatMap((sub: { connections: { connectionId: string }[] }) => sub.connections)
    .find((item: { connectionId: string }) => item.connectionId === connectionId);

beforeAll(async () => {
  stub = await startTwilioStub();
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await stub.close();
});

describe('production without MESSAGING_SANDBOX', () => {
  let app: Awaited<ReturnType<typeof open>>;
  let legacyId: string;

  beforeAll(async () => {
    app = await open(PRODUCTION);
    // A sandbox SMS agent made before the upgrade (or by a server that allowed the sandbox).
    legacyId = newId('connection');
    await app.t.deps.db.insert(connections).values({
      id: legacyId,
      subaccountId: app.subaccountId,
      accountId: app.accountId,
      type: 'sms',
      name: 'Old sandbox SMS Agent',
      widgetId: legacyId,
      buildId: app.agentId,
      settings: {} as never,
    });
    await app.t.deps.db
      .insert(channelAccounts)
      .values({ connectionId: legacyId, subaccountId: app.subaccountId, transport: 'sandbox', status: 'live' });
  });

  it('refuses to create SMS, WhatsApp and Instagram connections without credentials, naming what is missing', async () => {
    const before = (await app.t.deps.db.select({ n: count() }).from(connections))[0]?.n;
    const cases = [
      ['sms', 'twilio', 'the Twilio Account SID, an auth token (or API key) and the sending number'],
      ['whatsapp', 'twilio', 'the Twilio Account SID, an auth token (or API key) and the WhatsApp number'],
      ['instagram', 'meta', 'the page access token and the app secret, or use Connect with Meta'],
    ] as const;
    for (const [type, field, needs] of cases) {
      const res = await app.api('POST', '/api/channels', {
        subaccountId: app.subaccountId,
        type,
        buildId: app.agentId,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
      expect(res.json().error.message).toBe(`The sandbox is off on this server (MESSAGING_SANDBOX). Enter ${needs}.`);
    }
    expect((await app.t.deps.db.select({ n: count() }).from(connections))[0]?.n).toBe(before);
    const list = await app.api('GET', `/api/subaccounts/${app.subaccountId}/channels?type=sms`);
    expect(list.json().sandboxAvailable).toBe(false);
  });

  it('keeps a connection with credentials from going back to the sandbox', async () => {
    const created = await app.api('POST', '/api/channels', {
      subaccountId: app.subaccountId,
      type: 'sms',
      buildId: app.agentId,
      twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
      sender: { phoneNumber: '+15557654321' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const back = await app.api('PATCH', `/api/channels/${created.json().connectionId}`, { twilio: null });
    expect(back.statusCode).toBe(422);
    expect(back.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'twilio' });
    const [row] = await app.t.deps.db
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.connectionId, created.json().connectionId));
    expect(row?.transport).toBe('twilio');
  });

  it('shows a sandbox connection left from before as an error, in the API and in Launch, never live', async () => {
    const view = (await app.api('GET', `/api/channels/${legacyId}`)).json();
    expect(view).toMatchObject({ transport: 'sandbox', status: 'error', statusCode: 'TWILIO_AUTH_FAILED' });
    expect(view.statusMessage).toContain('MESSAGING_SANDBOX');
    expect(await launchRecord(app.api, legacyId)).toMatchObject({
      status: 'error',
      sandbox: true,
      error: { code: 'TWILIO_AUTH_FAILED', actions: ['Update Credentials'] },
    });
  });

  it('refuses its sandbox phone, campaigns and inbox replies, and fails a queued message instead of "sending" it', async () => {
    const inbound = await app.api('POST', `/api/channels/${legacyId}/sandbox/inbound`, {
      from: '+15551230001',
      body: 'Hello?',
    });
    expect(inbound.statusCode).toBe(409);
    expect(inbound.json().error).toMatchObject({ code: 'CONFLICT', reason: 'messaging_sandbox_off' });
    expect(
      await app.t.deps.db.select().from(channelMessages).where(eq(channelMessages.connectionId, legacyId)),
    ).toEqual([]);

    await app.api('POST', `/api/channels/${app.subaccountId}/contacts`, { phone: '+15551230002' });
    const draft = await app.api('POST', `/api/channels/${legacyId}/campaigns`, {
      name: 'Spring',
      audience: { type: 'all' },
      message: 'Spring offer',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const start = await app.api('POST', `/api/channels/${legacyId}/campaigns/${draft.json().campaignId}/start`);
    expect(start.statusCode).toBe(409);
    expect(start.json().error.reason).toBe('messaging_sandbox_off');
    expect(
      (await app.api('GET', `/api/channels/${legacyId}/campaigns/${draft.json().campaignId}`)).json(),
    ).toMatchObject({ status: 'draft', figures: { total: 0 } });

    await expect(humanReplyDelivery(app.t.deps, legacyId, '+15551230002', 'Hello')).rejects.toMatchObject({
      code: 'CONFLICT',
      reason: 'messaging_sandbox_off',
    });

    const [queued] = await app.t.deps.db
      .insert(channelMessages)
      .values({
        id: 'cms_legacyqueued',
        subaccountId: app.subaccountId,
        connectionId: legacyId,
        direction: 'outbound',
        contactPhone: '+15551230002',
        body: 'Queued before the upgrade',
        status: 'queued',
        transport: 'sandbox',
      })
      .returning();
    const channel = (await findChannel(app.t.deps.db, legacyId)) as Channel;
    await expect(sendStored(app.t.deps, channel, queued as MessageRow, { keywordReply: false })).rejects.toThrow(
      'nothing was sent',
    );
    const [failed] = await app.t.deps.db
      .select()
      .from(channelMessages)
      .where(eq(channelMessages.id, 'cms_legacyqueued'));
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'SANDBOX_OFF', providerSid: null });
  });
});

describe('production with MESSAGING_SANDBOX=true', () => {
  let app: Awaited<ReturnType<typeof open>>;
  let connectionId: string;

  beforeAll(async () => {
    app = await open({ ...PRODUCTION, MESSAGING_SANDBOX: 'true' });
  });

  it('creates a sandbox connection and answers its sandbox phone', async () => {
    const created = await app.api('POST', '/api/channels', {
      subaccountId: app.subaccountId,
      type: 'sms',
      buildId: app.agentId,
    });
    expect(created.statusCode, created.body).toBe(201);
    connectionId = created.json().connectionId;
    expect(created.json()).toMatchObject({ transport: 'sandbox', status: 'live' });
    expect((await app.api('GET', `/api/subaccounts/${app.subaccountId}/channels?type=sms`)).json()).toMatchObject({
      sandboxAvailable: true,
    });
    const inbound = await app.api('POST', `/api/channels/${connectionId}/sandbox/inbound`, {
      from: '+15551230003',
      body: 'What are your opening hours?',
    });
    expect(inbound.statusCode, inbound.body).toBe(202);
    const answered = await until(
      async () => (await app.api('GET', `/api/channels/${connectionId}/messages?phone=%2B15551230003`)).json(),
      (body) => body.messages.some((message: { direction: string }) => message.direction === 'outbound'),
    );
    expect(answered.messages.at(-1)).toMatchObject({ direction: 'outbound', transport: 'sandbox' });
  });

  it('labels its campaign report and every row of the export "Sandbox — nothing was sent"', async () => {
    for (const phone of ['+15551230004', '+15551230005'])
      await app.api('POST', `/api/channels/${connectionId}/contacts`, { phone, tags: ['spring'] });
    const draft = await app.api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Spring',
      audience: { type: 'tags', tags: ['spring'] },
      message: 'Spring offer',
    });
    expect(draft.json().sandbox).toBe(true);
    const id = draft.json().campaignId;
    expect((await app.api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`)).statusCode).toBe(200);
    const done = await until(
      async () => (await app.api('GET', `/api/channels/${connectionId}/campaigns/${id}`)).json(),
      (body) => body.status === 'completed',
    );
    expect(done).toMatchObject({ sandbox: true, figures: { total: 2, delivered: 2 } });
    const csv = (await app.api('GET', `/api/channels/${connectionId}/campaigns/${id}/export.csv`)).body;
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header?.split(',').at(-1)).toBe('note');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.endsWith(SANDBOX_NOTICE)).toBe(true);
    const recipients = await app.t.deps.db.select().from(campaignRecipients);
    expect(recipients.every((row) => row.status === 'delivered')).toBe(true);
    expect(await launchRecord(app.api, connectionId)).toMatchObject({ status: 'live', sandbox: true });
  });
});

describe('outside production', () => {
  it('uses the sandbox by default where nothing is configured, and MESSAGING_SANDBOX=false turns it off', async () => {
    const dev = await open({ JOB_POLL_MS: '20' });
    const created = await dev.api('POST', '/api/channels', {
      subaccountId: dev.subaccountId,
      type: 'whatsapp',
      buildId: dev.agentId,
    });
    expect(created.json()).toMatchObject({ transport: 'sandbox', status: 'live' });
    const off = await open({ MESSAGING_SANDBOX: 'false' });
    const refused = await off.api('POST', '/api/channels', {
      subaccountId: off.subaccountId,
      type: 'whatsapp',
      buildId: off.agentId,
    });
    expect(refused.statusCode).toBe(422);
  });
});
