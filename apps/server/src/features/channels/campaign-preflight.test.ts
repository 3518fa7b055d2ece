/**
 * Before a campaign is sent: its audience broken down (suppressed, opted out, held by quiet hours
 * now), the cost estimate (segments as sending counts them × the price entered for the
 * connection; no credits), and a test send to the agency's own number through the connection's
 * real transport (Twilio, here its local stub), outside the campaign and limited.
 */
import { smsEncoding } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { campaignRecipients, channelMessages, channelSuppressions } from './schema';

let stub: TwilioStub;
let t: TestApp;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;
let sandboxId: string;
let campaignId: string;

const MESSAGE = `Hi {{first_name}}, ${'our clinic offers 20% off whitening this week only. '.repeat(2).trim()}`;
const hhmm = (date: Date) => date.toISOString().slice(11, 16);

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  stub = await startTwilioStub();
  t = await startTestApp({ TWILIO_API_URL: stub.url, PUBLIC_URL: 'https://app.example.com', JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  const twilio = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: '+15557654321' },
  });
  expect(twilio.statusCode, twilio.body).toBe(201);
  connectionId = twilio.json().connectionId;
  sandboxId = (await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id })).json()
    .connectionId;
  const contacts = [
    { phone: '+15551270001', name: 'Ann Lee', tags: ['vip'], timeZone: 'Asia/Tokyo' },
    { phone: '+15551270002', name: '李 Wei', tags: ['vip'] },
    { phone: '+15551270003', name: 'Opted Out', tags: ['vip'] },
    { phone: '+15551270004', name: 'Failed', tags: ['vip'] },
  ];
  for (const contact of contacts) {
    const added = await api('POST', `/api/channels/${subaccountId}/contacts`, contact);
    expect(added.statusCode, added.body).toBeLessThan(300);
  }
  await t.deps.db.insert(channelSuppressions).values([
    { subaccountId, sender: '*', phone: '+15551270003', source: 'keyword', keyword: 'STOP' },
    { subaccountId, sender: '*', phone: '+15551270004', source: 'failed', errorCode: '21211' },
  ]);
  // Quiet hours around now in UTC: the contact without a time zone (the sub-account's, UTC) waits; Tokyo does not.
  const now = Date.now();
  const created = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: 'Whitening',
    audience: { type: 'tags', tags: ['vip'] },
    message: MESSAGE,
    quietHours: { start: hhmm(new Date(now - 3_600_000)), end: hhmm(new Date(now + 3_600_000)) },
  });
  expect(created.statusCode, created.body).toBe(201);
  campaignId = created.json().campaignId;
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

const base = () => `/api/channels/${connectionId}/campaigns/${campaignId}`;

describe('the audience before sending', () => {
  it('is broken down: every contact, suppressed, opted out, recipients and those quiet hours hold now', async () => {
    const size = await api('GET', `${base()}/audience`);
    expect(size.statusCode, size.body).toBe(200);
    expect(size.json()).toEqual({ contacts: 4, suppressed: 1, optedOut: 1, recipients: 2, heldByQuietHours: 1 });
    expect((await api('GET', `${base()}/audience`, undefined, outsider)).statusCode).toBe(404);
  });
});

describe('the price per segment of a connection', () => {
  it('is stored from its settings, shown back, validated, and can be removed', async () => {
    const saved = await api('PATCH', `/api/channels/${connectionId}`, {
      segmentPrice: { amount: '0.0079', currency: 'usd' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().segmentPrice).toEqual({ amount: '0.0079', currency: 'USD' });
    for (const segmentPrice of [
      { amount: '-1', currency: 'USD' },
      { amount: '0', currency: 'USD' },
      { amount: '0.00000001', currency: 'USD' },
      { amount: 'ten', currency: 'USD' },
      { amount: '0.01', currency: 'dollars' },
      { amount: '101', currency: 'USD' },
    ]) {
      const bad = await api('PATCH', `/api/channels/${connectionId}`, { segmentPrice });
      expect([segmentPrice, bad.statusCode]).toEqual([segmentPrice, 422]);
    }
    const cleared = await api('PATCH', `/api/channels/${sandboxId}`, { segmentPrice: null });
    expect(cleared.json().segmentPrice).toBeNull();
    const foreign = await api(
      'PATCH',
      `/api/channels/${connectionId}`,
      { segmentPrice: { amount: '1', currency: 'USD' } },
      outsider,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await api('GET', `/api/channels/${connectionId}`)).json().segmentPrice).toEqual({
      amount: '0.0079',
      currency: 'USD',
    });
  });
});

describe('the cost estimate', () => {
  it('counts each recipient’s message as sending does (GSM-7 or UCS-2) times the price; no credits', async () => {
    const ann = smsEncoding(MESSAGE.replace('{{first_name}}', 'Ann'));
    const wei = smsEncoding(MESSAGE.replace('{{first_name}}', '李'));
    expect(ann.encoding).toBe('GSM-7');
    expect(wei.encoding).toBe('UCS-2');
    const estimate = await api('GET', `${base()}/estimate`);
    expect(estimate.statusCode, estimate.body).toBe(200);
    const segments = ann.segments + wei.segments;
    expect(estimate.json()).toEqual({
      audience: { contacts: 4, suppressed: 1, optedOut: 1, recipients: 2, heldByQuietHours: 1 },
      encoding: 'UCS-2',
      segmentsPerMessage: wei.segments,
      segments,
      sampled: false,
      pricePerSegment: { amount: '0.0079', currency: 'USD' },
      cost: { amount: (segments * 0.0079).toFixed(4), currency: 'USD' },
      credits: 0,
      sandbox: false,
    });
    expect((await api('GET', `${base()}/estimate`, undefined, outsider)).statusCode).toBe(404);
  });

  it('has no cost without a price, and says a sandbox connection sends nothing out', async () => {
    const created = await api('POST', `/api/channels/${sandboxId}/campaigns`, {
      name: 'Sandbox',
      audience: { type: 'all' },
      message: 'Hello',
    });
    const estimate = (
      await api('GET', `/api/channels/${sandboxId}/campaigns/${created.json().campaignId}/estimate`)
    ).json();
    expect(estimate).toMatchObject({
      encoding: 'GSM-7',
      segments: 2,
      pricePerSegment: null,
      cost: null,
      sandbox: true,
    });
  });
});

describe('a test send', () => {
  it('goes through Twilio to the number given, outside the campaign', async () => {
    const before = stub.messages.length;
    const sent = await api('POST', `${base()}/test-send`, { to: '(555) 199-0000' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ to: '+15551990000', sandbox: false });
    const message = await until(() => stub.messages.slice(before).find((m) => m.params.To === '+15551990000'), Boolean);
    expect(message?.params.Body).toBe(MESSAGE.replace('{{first_name}}', ''));
    const stored = await t.deps.db
      .select()
      .from(channelMessages)
      .where(eq(channelMessages.id, sent.json().messageIds[0]));
    expect(stored[0]).toMatchObject({ campaignId: null, contactPhone: '+15551990000' });
    const campaign = (await api('GET', base())).json();
    expect(campaign.figures.total).toBe(0);
    expect(campaign.status).toBe('draft');
    const recipients = await t.deps.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId));
    expect(recipients).toEqual([]);
  });

  it('from a sandbox connection reaches the sandbox phone only', async () => {
    const created = await api('POST', `/api/channels/${sandboxId}/campaigns`, {
      name: 'Sandbox test',
      audience: { type: 'all' },
      message: 'Hello from the sandbox',
    });
    const before = stub.requests.length;
    const sent = await api('POST', `/api/channels/${sandboxId}/campaigns/${created.json().campaignId}/test-send`, {
      to: '+15551990002',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ sandbox: true, body: 'Hello from the sandbox' });
    const row = await until(
      async () =>
        (await t.deps.db.select().from(channelMessages).where(eq(channelMessages.id, sent.json().messageIds[0])))[0],
      (found) => found?.status !== 'queued',
    );
    expect(row).toMatchObject({ transport: 'sandbox', campaignId: null });
    expect(stub.requests.length).toBe(before);
  });

  it('fills the variables of a number that is a contact', async () => {
    const sent = await api('POST', `${base()}/test-send`, { to: '+15551270001' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().body).toBe(MESSAGE.replace('{{first_name}}', 'Ann'));
  });

  it('refuses a bad number, an opted-out number, another agency and, past the limit, more sends', async () => {
    const bad = await api('POST', `${base()}/test-send`, { to: 'call me' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.field).toBe('to');
    const optedOut = await api('POST', `${base()}/test-send`, { to: '+15551270003' });
    expect(optedOut.statusCode).toBe(409);
    expect((await api('POST', `${base()}/test-send`, { to: '+15551990000' }, outsider)).statusCode).toBe(404);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push((await api('POST', `${base()}/test-send`, { to: '+15551990000' })).statusCode);
    // Two were sent above: three more pass, then the limit of five answers 429.
    expect(answers).toEqual([200, 200, 200, 429]);
  });
});
