/**
 * The opt-out bypass: a number that texted STOP stays opted out of that sender when its contact is
 * deleted and added again (by the API or a CSV import), on every send path, until its own START;
 * another sender is not affected. Inbound messages are Twilio's real webhook shape, signed with the
 * twilio SDK; sends go through the SDK to the local Twilio stand-in.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { jobs } from '../../platform/jobs.schema';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartForm } from '../../testing/multipart';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { messages, threads } from '../conversations/schema';
import { type Channel, findChannel } from './connections';
import { type MessageRow, sendStored } from './outbound';
import { channelMessages, channelSuppressions } from './schema';
import { OPTED_OUT_MESSAGE } from './suppressions';

const PUBLIC_URL = 'https://switchboard.example.com';
const SENDER_A = '+15557654321';
const SENDER_B = '+15557654322';
let t: TestApp;
let stub: TwilioStub;
let admin: string;
let subaccountId: string;
let connA: string;
let connB: string;
let sequence = 0;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

/** An inbound SMS as Twilio posts it to the connection's webhook, signed with the SDK. */
const text = async (
  connectionId: string,
  to: string,
  from: string,
  body: string,
  extra: Record<string, string> = {},
) => {
  sequence += 1;
  const sid = `SM${String(sequence).padStart(32, '0')}`;
  const params: Record<string, string> = {
    ToCountry: 'US',
    ToState: 'CA',
    SmsMessageSid: sid,
    NumMedia: '0',
    ToCity: '',
    FromZip: '',
    SmsSid: sid,
    FromState: 'CA',
    SmsStatus: 'received',
    FromCity: '',
    Body: body,
    FromCountry: 'US',
    To: to,
    ToZip: '',
    NumSegments: '1',
    MessageSid: sid,
    AccountSid: TEST_ACCOUNT_SID,
    From: from,
    ApiVersion: '2010-04-01',
    ...extra,
  };
  const url = `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/webhooks/twilio/${connectionId}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, url, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return sid;
};

/** Waits until the inbound message's job has run, and answers what it did. */
const handled = async (sid: string) => {
  const [message] = await until(
    () => t.deps.db.select().from(channelMessages).where(eq(channelMessages.providerSid, sid)),
    (rows) => rows.length === 1,
  );
  const [job] = await until(
    () =>
      t.deps.db
        .select()
        .from(jobs)
        .where(eq(jobs.idempotencyKey, `inbound:${message?.id}`)),
    (rows) => rows[0]?.status === 'succeeded',
  );
  return job?.result as Record<string, unknown>;
};

const sentTo = (phone: string, from?: string) =>
  stub.messages.filter((message) => message.params.To === phone && (!from || message.params.From === from));

const contactOf = async (connectionId: string, phone: string) => {
  const list = await api('GET', `/api/channels/${connectionId}/contacts?search=${encodeURIComponent(phone)}`);
  return list.json().contacts.find((contact: { phone: string }) => contact.phone === phone);
};

/** Runs a campaign on the connection to a tag, to its end. */
const runCampaign = async (connectionId: string, tag: string) => {
  const created = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: `To ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message: 'Spring offer: 10% off this week',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().campaignId;
  const started = await api('POST', `/api/channels/${connectionId}/campaigns/${id}/start`);
  expect(started.statusCode, started.body).toBe(200);
  const done = await until(
    async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${id}`)).json(),
    (body) => body.status === 'completed',
  );
  const csv = (await api('GET', `/api/channels/${connectionId}/campaigns/${id}/export.csv`)).body;
  return { campaign: done, csv };
};

const csvRow = (csv: string, phone: string) => csv.split('\n').find((line) => line.startsWith(phone)) ?? '';

const connect = async (agentId: string, sender: string) => {
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agentId,
    connectionName: `SMS ${sender}`,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: sender },
    sendRatePerSecond: 0,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().connectionId as string;
};

beforeAll(async () => {
  stub = await startTwilioStub();
  t = await startTestApp({ TWILIO_API_URL: stub.url, PUBLIC_URL, JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' });
  admin = await t.cookieFor(agency.ownerId);
  connA = await connect(agent.id, SENDER_A);
  connB = await connect(agent.id, SENDER_B);
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

describe('opt-outs belong to the number and the sender', () => {
  const stopped = '+15551110001';
  const subscribed = '+15551110002';

  it('a STOP outlives deleting the contact and adding it again by the API: the campaign skips it and says why', async () => {
    expect(
      (await api('POST', `/api/channels/${connA}/contacts`, { phone: stopped, tags: ['spring'] })).statusCode,
    ).toBe(201);
    expect(await handled(await text(connA, SENDER_A, stopped, 'STOP'))).toMatchObject({ keyword: 'opt_out' });
    const before = await contactOf(connA, stopped);
    expect(before).toMatchObject({ optedOut: true });

    expect((await api('DELETE', `/api/channels/${connA}/contacts/${before.contactId}`)).statusCode).toBe(204);
    const again = await api('POST', `/api/channels/${connA}/contacts`, { phone: stopped, tags: ['spring'] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ phone: stopped, optedOut: true });
    await api('POST', `/api/channels/${connA}/contacts`, { phone: subscribed, tags: ['spring'] });

    const { campaign, csv } = await runCampaign(connA, 'spring');
    expect(sentTo(stopped)).toHaveLength(0);
    expect(sentTo(subscribed, SENDER_A)).toHaveLength(1);
    expect(campaign.figures).toMatchObject({ total: 2, sent: 1, skipped: 1, suppressed: 1 });
    expect(csvRow(csv, stopped)).toContain('skipped,,OPTED_OUT');
  });

  it('the same after a CSV import of the number', async () => {
    const phone = '+15551110003';
    await handled(await text(connA, SENDER_A, phone, 'unsubscribe'));
    const contact = await contactOf(connA, phone);
    expect(contact).toMatchObject({ optedOut: true });
    expect((await api('DELETE', `/api/channels/${connA}/contacts/${contact.contactId}`)).statusCode).toBe(204);

    const form = multipartForm(
      { name: 'contacts.csv', type: 'text/csv', content: `Mobile,Name\n${phone},Pat\n+15551110004,Sam\n` },
      { mapping: JSON.stringify({ phone: 'Mobile', name: 'Name', addTags: ['imported'] }) },
    );
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/channels/${connA}/contacts/import`,
      headers: { cookie: admin, ...form.headers },
      payload: form.payload,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ imported: 2 });
    expect(await contactOf(connA, phone)).toMatchObject({ optedOut: true });

    const { campaign, csv } = await runCampaign(connA, 'imported');
    expect(sentTo(phone)).toHaveLength(0);
    expect(campaign.figures).toMatchObject({ total: 2, sent: 1, suppressed: 1 });
    expect(csvRow(csv, phone)).toContain('skipped,,OPTED_OUT');
  });

  it('another sender of the same sub-account is not affected', async () => {
    expect(await contactOf(connB, stopped)).toMatchObject({ optedOut: false });
    const { campaign } = await runCampaign(connB, 'spring');
    expect(sentTo(stopped, SENDER_B)).toHaveLength(1);
    expect(sentTo(stopped, SENDER_A)).toHaveLength(0);
    expect(campaign.figures).toMatchObject({ total: 2, sent: 2, suppressed: 0 });
  });

  it('refuses agent replies and inbox replies to the number, with a clear error, until its START', async () => {
    const phone = '+15551110005';
    expect(await handled(await text(connA, SENDER_A, phone, 'What are your opening hours?'))).toHaveProperty(
      'threadId',
    );
    // Every part of the agent's answer has gone out.
    await until(
      () =>
        t.deps.db
          .select()
          .from(channelMessages)
          .where(and(eq(channelMessages.contactPhone, phone), eq(channelMessages.direction, 'outbound'))),
      (rows) => rows.length > 0 && rows.every((row) => row.providerSid !== null || row.status === 'failed'),
    );
    const answered = sentTo(phone).length;
    expect(answered).toBeGreaterThan(0);
    await handled(await text(connA, SENDER_A, phone, 'stop'));
    await api('DELETE', `/api/channels/${connA}/contacts/${(await contactOf(connA, phone)).contactId}`);

    // The agent does not answer the number …
    expect(await handled(await text(connA, SENDER_A, phone, 'Are you open on Sunday?'))).toEqual({
      skipped: 'opted out',
    });
    // … and an answer already queued when the STOP came is not sent either.
    const channel = (await findChannel(t.deps.db, connA)) as Channel;
    const [queued] = await t.deps.db
      .insert(channelMessages)
      .values({
        id: 'cms_inflightanswer',
        subaccountId,
        connectionId: connA,
        direction: 'outbound',
        contactPhone: phone,
        body: 'We open at 9.',
        status: 'queued',
        idempotencyKey: 'reply:in-flight:0',
        transport: 'twilio',
      })
      .returning();
    await sendStored(t.deps, channel, queued as MessageRow, { keywordReply: false });
    const [refused] = await t.deps.db
      .select()
      .from(channelMessages)
      .where(eq(channelMessages.id, 'cms_inflightanswer'));
    expect(refused).toMatchObject({ errorCode: 'OPTED_OUT', errorMessage: OPTED_OUT_MESSAGE });

    // A person's reply from the inbox is refused before anything is stored.
    const [thread] = await t.deps.db
      .select()
      .from(threads)
      .where(and(eq(threads.channelRef, connA), eq(threads.contactIdentifier, phone)));
    const stored = async () =>
      (
        await t.deps.db
          .select()
          .from(messages)
          .where(eq(messages.threadId, thread?.id ?? ''))
      ).length;
    const storedBefore = await stored();
    const reply = await api('POST', `/api/connections/${connA}/conversations/${thread?.id}/messages`, {
      content: 'Hi, this is Ana from the office.',
    });
    expect(reply.statusCode, reply.body).toBe(409);
    expect(reply.json().error).toMatchObject({ code: 'MESSAGE_SEND_FAILED', message: OPTED_OUT_MESSAGE });
    expect(await stored()).toBe(storedBefore);
    expect(sentTo(phone)).toHaveLength(answered);

    // The person's own START lifts it: the inbox reply goes out.
    expect(await handled(await text(connA, SENDER_A, phone, 'START'))).toMatchObject({ keyword: 'opt_in' });
    const after = await api('POST', `/api/connections/${connA}/conversations/${thread?.id}/messages`, {
      content: 'Hi, this is Ana from the office.',
    });
    expect(after.statusCode, after.body).toBe(200);
    await until(
      async () => sentTo(phone),
      (list) => list.length > answered,
    );
  });

  it("counts Twilio's OptOutType (Advanced Opt-Out keywords of its own) as the keyword", async () => {
    const phone = '+15551110006';
    await handled(await text(connA, SENDER_A, phone, 'ARRET', { OptOutType: 'STOP' }));
    expect(await contactOf(connA, phone)).toMatchObject({ optedOut: true });
    await handled(await text(connA, SENDER_A, phone, 'Reprendre', { OptOutType: 'START' }));
    expect(await contactOf(connA, phone)).toMatchObject({ optedOut: false });
  });

  it("an opt-out marked by hand covers every sender until the person's START", async () => {
    const phone = '+15551110007';
    const created = (await api('POST', `/api/channels/${connA}/contacts`, { phone, tags: ['hand'] })).json();
    const marked = await api('PATCH', `/api/channels/${connA}/contacts/${created.contactId}`, { optedOut: true });
    expect(marked.json()).toMatchObject({ optedOut: true });
    expect(await contactOf(connB, phone)).toMatchObject({ optedOut: true });
    const { campaign } = await runCampaign(connB, 'hand');
    expect(campaign.figures).toMatchObject({ total: 1, sent: 0, suppressed: 1 });
    expect(sentTo(phone)).toHaveLength(0);
    await handled(await text(connB, SENDER_B, phone, 'Yes'));
    expect(await contactOf(connA, phone)).toMatchObject({ optedOut: false });
    expect(await contactOf(connB, phone)).toMatchObject({ optedOut: false });
  });

  it('the migration moves opt-outs stored on contacts onto the list, for every sender', async () => {
    const db = t.deps.db;
    // The contact columns as they were before the migration, with one opted-out contact.
    await db.execute(
      sql`ALTER TABLE contacts ADD COLUMN opted_out boolean NOT NULL DEFAULT false, ADD COLUMN opted_out_at timestamptz`,
    );
    await db.execute(sql`INSERT INTO contacts (id, subaccount_id, phone, opted_out, opted_out_at)
      VALUES ('ctc_legacyoptout', ${subaccountId}, '+15551110099', true, '2026-01-02T03:04:05Z'),
             ('ctc_legacysubscr', ${subaccountId}, '+15551110098', false, null)`);
    const file = readFileSync(path.join(import.meta.dirname, '../../../drizzle/0022_channel_suppressions.sql'), 'utf8');
    const move = file.slice(file.indexOf('-- Opt-outs recorded on contacts'));
    for (const statement of move.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const rows = await db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, '+15551110099'));
    expect(rows).toEqual([expect.objectContaining({ sender: '*', source: 'migrated', subaccountId })]);
    expect(rows[0]?.createdAt.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(
      await db.select().from(channelSuppressions).where(eq(channelSuppressions.phone, '+15551110098')),
    ).toHaveLength(0);
    const columns = rowsOf<{ name: string }>(
      await db.execute(
        sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'contacts' AND column_name LIKE 'opted%'`,
      ),
    );
    expect(columns).toHaveLength(0);
    expect(await contactOf(connA, '+15551110099')).toMatchObject({ optedOut: true });
  });
});
