/**
 * Numbers whose sends fail for good (Twilio 21211, 21614, 21610, 63016 …) join the suppression list
 * with the reason, later campaigns skip them and count them as suppressed, and the contacts list
 * shows them with a way to clear them; a contact's opt-in state, time zone and import column.
 * Sends go through the twilio SDK to the local Twilio stand-in, which refuses +15005550001 (21211).
 */
import { and, eq } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartForm } from '../../testing/multipart';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { campaignRecipients, channelMessages, channelSuppressions } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const SENDER = '+15557654321';
const INVALID = '+15005550001';
let t: TestApp;
let stub: TwilioStub;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const contactOf = async (phone: string) =>
  (
    (await api('GET', `/api/channels/${connectionId}/contacts?search=${encodeURIComponent(phone)}`)).json()
      .contacts as { contactId: string; phone: string; optedOut: boolean; suppression: unknown; timeZone: string }[]
  ).find((contact) => contact.phone === phone);

const runCampaign = async (tag: string) => {
  const created = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: `Run ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Spring check-ups are open.',
  });
  expect(created.statusCode, created.body).toBe(201);
  const campaignId = created.json().campaignId as string;
  expect((await api('POST', `/api/channels/${connectionId}/campaigns/${campaignId}/start`)).statusCode).toBe(200);
  const done = await until(
    async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${campaignId}`)).json(),
    (body) => body.status === 'completed',
    15_000,
  );
  return { campaignId, campaign: done };
};

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
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Desk' });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: SENDER },
  });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
  for (const phone of [INVALID, '+15551250001'])
    expect((await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, tags: ['spring'] })).statusCode).toBe(
      201,
    );
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('numbers that fail permanently', () => {
  it('join the suppression list with the reason; later campaigns skip them and count them as suppressed', async () => {
    const first = await runCampaign('spring');
    const [failed] = await t.deps.db
      .select()
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, first.campaignId), eq(campaignRecipients.phone, INVALID)));
    expect(failed, JSON.stringify(first.campaign)).toMatchObject({ status: 'failed', errorCode: '21211' });
    const [entry] = await t.deps.db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, INVALID));
    expect(entry).toMatchObject({ subaccountId, sender: '*', source: 'failed', errorCode: '21211' });
    expect(entry?.errorMessage).toContain('not a valid phone number');

    const attempts = stub.messages.length;
    const second = await runCampaign('spring');
    const [skipped] = await t.deps.db
      .select()
      .from(campaignRecipients)
      .where(and(eq(campaignRecipients.campaignId, second.campaignId), eq(campaignRecipients.phone, INVALID)));
    expect(skipped).toMatchObject({ status: 'skipped', skipReason: 'SUPPRESSED' });
    expect(second.campaign.figures ?? second.campaign).toMatchObject({ suppressed: 1 });
    // Only the good number was sent to.
    expect(stub.messages.slice(attempts).map((m) => m.params.To)).toEqual(['+15551250001']);
  });

  it('are shown on the contacts list with the reason, and cleared by hand', async () => {
    const contact = await contactOf(INVALID);
    expect(contact).toMatchObject({
      optedOut: true,
      suppression: { source: 'failed', errorCode: '21211', clearable: true },
    });
    const foreign = await api(
      'PATCH',
      `/api/channels/${connectionId}/contacts/${contact?.contactId}`,
      { optedOut: false },
      outsider,
    );
    expect(foreign.statusCode).toBe(404);
    const cleared = await api('PATCH', `/api/channels/${connectionId}/contacts/${contact?.contactId}`, {
      optedOut: false,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ optedOut: false, suppression: null });
    expect(await t.deps.db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, INVALID))).toEqual(
      [],
    );
  });

  it('an agent reply failing for good suppresses the number too', async () => {
    const phone = '+15005550001';
    await t.deps.db.delete(channelSuppressions).where(eq(channelSuppressions.phone, phone));
    const params = {
      MessageSid: `SM${'e'.repeat(32)}`,
      AccountSid: TEST_ACCOUNT_SID,
      From: phone,
      To: SENDER,
      Body: 'Hello',
      NumMedia: '0',
    };
    const url = `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`;
    await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio/${connectionId}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, url, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
    await until(
      async () => t.deps.db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, phone)),
      (rows) => rows.length === 1,
    );
    const [sent] = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.contactPhone, phone), eq(channelMessages.source, 'agent')));
    expect(sent).toMatchObject({ status: 'failed', errorCode: '21211', direction: 'outbound' });
  });
});

describe('a contact’s opt-in state and time zone', () => {
  it('is opted out by hand and back in; a STOP the contact sent stays until their START (409)', async () => {
    const created = await api('POST', `/api/channels/${subaccountId}/contacts`, { phone: '+15551250010' });
    const id = created.json().contactId;
    const out = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, { optedOut: true });
    expect(out.json()).toMatchObject({ optedOut: true, suppression: { source: 'manual', clearable: true } });
    const back = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, { optedOut: false });
    expect(back.json()).toMatchObject({ optedOut: false, suppression: null });

    await t.deps.db.insert(channelSuppressions).values({
      subaccountId,
      sender: `sms:${SENDER}`,
      phone: '+15551250010',
      source: 'keyword',
      keyword: 'STOP',
    });
    const refused = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, {
      optedOut: false,
      name: 'Changed',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('texted STOP');
    const kept = await contactOf('+15551250010');
    expect(kept).toMatchObject({
      optedOut: true,
      suppression: { source: 'keyword', keyword: 'STOP', clearable: false },
    });
    // Nothing of the refused change was written.
    expect(kept).not.toMatchObject({ name: 'Changed' });
  });

  it('takes IANA time zones only, and clears one', async () => {
    const created = await api('POST', `/api/channels/${subaccountId}/contacts`, { phone: '+15551250011' });
    const id = created.json().contactId;
    const bad = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, { timeZone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.message).toContain('Europe/Berlin');
    const good = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, { timeZone: 'Europe/Berlin' });
    expect(good.json()).toMatchObject({ timeZone: 'Europe/Berlin' });
    const none = await api('PATCH', `/api/channels/${connectionId}/contacts/${id}`, { timeZone: null });
    expect(none.json()).toMatchObject({ timeZone: null });
  });

  it('maps a Timezone column at import, suggesting it and reporting names that are no time zone', async () => {
    const csv = 'Phone,Name,Timezone\n+15551250020,Ada,Europe/London\n+15551250021,Bob,Nowhere/City\n';
    const preview = multipartForm({ name: 'contacts.csv', type: 'text/csv', content: csv }, {});
    const previewed = await t.app.inject({
      method: 'POST',
      url: `/api/channels/${subaccountId}/contacts/import/preview`,
      headers: { cookie: admin, ...preview.headers },
      payload: preview.payload,
    });
    expect(previewed.json().suggestedMapping).toMatchObject({ phone: 'Phone', timeZone: 'Timezone' });
    const form = multipartForm(
      { name: 'contacts.csv', type: 'text/csv', content: csv },
      { mapping: JSON.stringify({ phone: 'Phone', name: 'Name', timeZone: 'Timezone' }) },
    );
    const report = await t.app.inject({
      method: 'POST',
      url: `/api/channels/${subaccountId}/contacts/import`,
      headers: { cookie: admin, ...form.headers },
      payload: form.payload,
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({
      imported: 1,
      rejected: [{ line: 3, code: 'INVALID_TIME_ZONE', value: 'Nowhere/City' }],
    });
    expect(await contactOf('+15551250020')).toMatchObject({ timeZone: 'Europe/London' });
  });
});
