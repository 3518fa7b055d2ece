/**
 * A campaign message is part of each recipient's conversation: stored once when its send is
 * confirmed, shown in the inbox as sent by the campaign, and given to the model as the agent's own
 * earlier turn when the contact answers. And a person's long SMS reply from the inbox goes out in
 * parts like the agent's answers. Sends go through the twilio SDK to the local Twilio stand-in;
 * the agent runs on the local model stand-in.
 */
import { and, asc, eq } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { messages, threads } from '../conversations/schema';
import { applyOutcomes, outcomeOf } from './dispatch-outcomes';
import { campaignRecipients, channelMessages } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const SENDER = '+15557654321';
const OFFER = '20% off whitening this month. Want a slot on Friday?';
let t: TestApp;
let stub: TwilioStub;
let llm: StubLlm;
let admin: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

let sequence = 0;
const inbound = (from: string, body: string) => {
  sequence += 1;
  const sid = `SM${String(sequence).padStart(32, '0')}`;
  const params = { MessageSid: sid, AccountSid: TEST_ACCOUNT_SID, From: from, To: SENDER, Body: body, NumMedia: '0' };
  const url = `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`;
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/twilio/${connectionId}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, url, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
};

const addContact = async (phone: string, tag: string) => {
  const res = await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, name: 'Ada', tags: [tag] });
  expect(res.statusCode, res.body).toBe(201);
};

const sendCampaign = async (phones: string[], tag: string, message: string, { add = true } = {}) => {
  if (add) for (const phone of phones) await addContact(phone, tag);
  const created = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: `Offer ${tag}`,
    audience: { type: 'tags', tags: [tag] },
    message,
  });
  expect(created.statusCode, created.body).toBe(201);
  const campaignId = created.json().campaignId as string;
  const started = await api('POST', `/api/channels/${connectionId}/campaigns/${campaignId}/start`);
  expect(started.statusCode, started.body).toBe(200);
  await until(
    async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${campaignId}`)).json(),
    (body) => body.status === 'completed',
    15_000,
  );
  return campaignId;
};

const threadOf = async (phone: string) =>
  (
    await t.deps.db
      .select()
      .from(threads)
      .where(and(eq(threads.channelRef, connectionId), eq(threads.contactIdentifier, phone)))
  )[0];

beforeAll(async () => {
  stub = await startTwilioStub();
  llm = await startStubLlm();
  t = await startTestApp({
    TWILIO_API_URL: stub.url,
    PUBLIC_URL,
    JOB_POLL_MS: '20',
    FREE_PLAN_CREDITS: '1000000',
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
  });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  await useCompatibleProvider(t.deps.db, agency.accountId, llm.url);
  const agent = await seedAgent(t.deps.db, {
    accountId: agency.accountId,
    subaccountId,
    name: 'Smile Desk',
    provider: 'compatible',
    model: 'stub-model',
  });
  admin = await t.cookieFor(agency.ownerId);
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'sms',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: SENDER },
  });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
  await llm?.close();
});

describe('campaign messages in the recipients’ conversations', () => {
  it('stores the sent campaign message in the thread, and the agent answers the reply knowing it', async () => {
    const phone = '+15551240001';
    await sendCampaign([phone], 'whitening', OFFER);
    const thread = await threadOf(phone);
    expect(thread).toMatchObject({ channel: 'sms', messageCount: 1, lastMessage: OFFER });
    const stored = await t.deps.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, thread?.id as string));
    expect(stored).toEqual([expect.objectContaining({ role: 'assistant', source: 'campaign', content: OFFER })]);

    // The inbox shows it, marked as the campaign's.
    const transcript = await api('GET', `/api/connections/${connectionId}/conversations/${thread?.id}`);
    expect(transcript.statusCode, transcript.body).toBe(200);
    expect(transcript.json().messages).toEqual([
      expect.objectContaining({ role: 'assistant', source: 'campaign', content: OFFER }),
    ]);

    // The reply reaches the model after the campaign message, as the agent's own turn.
    const before = llm.requests.length;
    await inbound(phone, 'Yes, Friday works');
    const request = await until(
      async () => llm.requests.slice(before).find((r) => r.messages.some((m) => m.content === 'Yes, Friday works')),
      (found) => Boolean(found),
    );
    const turns = request?.messages.filter((m) => m.role !== 'system') ?? [];
    expect(turns.slice(-2)).toEqual([
      { role: 'assistant', content: OFFER },
      { role: 'user', content: 'Yes, Friday works' },
    ]);
    await until(
      async () =>
        t.deps.db
          .select()
          .from(messages)
          .where(eq(messages.threadId, thread?.id as string)),
      (rows) => rows.length === 3,
    );
    // The answer went into the same conversation.
    expect((await threadOf(phone))?.id).toBe(thread?.id);
  });

  it('joins an existing conversation, and a confirmed send written again stores nothing twice', async () => {
    const phone = '+15551240002';
    await addContact(phone, 'returning');
    await inbound(phone, 'Hello there');
    const existing = await until(
      () => threadOf(phone),
      (row) => Boolean(row && row.messageCount >= 2),
    );
    const campaignId = await sendCampaign([phone], 'returning', 'Hi {{first_name}}, new slots on Friday.', {
      add: false,
    });
    const [recipient] = await t.deps.db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId));
    const rows = await t.deps.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, existing?.id as string))
      .orderBy(asc(messages.createdAt));
    expect(rows.at(-1)).toMatchObject({ source: 'campaign', content: 'Hi Ada, new slots on Friday.' });
    const [sent] = await t.deps.db
      .select()
      .from(channelMessages)
      .where(eq(channelMessages.id, recipient?.messageId as string));
    expect(sent).toMatchObject({ threadId: existing?.id, source: 'campaign' });

    // A retry writing the same confirmed outcome again (as a reconciliation would).
    await applyOutcomes(t.deps, [
      outcomeOf(recipient?.id as string, { status: 'sent', messageId: recipient?.messageId as string }),
    ]);
    const again = await t.deps.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, existing?.id as string));
    expect(again).toHaveLength(rows.length);
    expect((await threadOf(phone))?.messageCount).toBe(rows.length);
  });
});

describe('a person’s SMS reply from the inbox', () => {
  it('goes out in parts that Twilio accepts, each at most one SMS part long', async () => {
    const phone = '+15551240003';
    await inbound(phone, 'Can someone call me?');
    const thread = await until(
      () => threadOf(phone),
      (row) => Boolean(row && row.messageCount >= 2),
    );
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} of a long answer from the team.`)
      .join(' ')
      .slice(0, 2199);
    expect(long.length).toBeGreaterThan(1600);
    const before = stub.messages.length;
    const res = await api('POST', `/api/connections/${connectionId}/conversations/${thread?.id}/messages`, {
      content: long,
    });
    expect(res.statusCode, res.body).toBe(200);
    const parts = await until(
      async () => stub.messages.slice(before).filter((m) => m.params.To === phone && m.key?.startsWith('human:')),
      (list) => list.length > 1 && list.map((m) => m.params.Body).join(' ').length >= long.length,
    );
    for (const part of parts) expect(String(part.params.Body).length).toBeLessThanOrEqual(306);
    expect(parts.map((m) => m.params.Body).join(' ')).toBe(long);
    const failed = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.contactPhone, phone), eq(channelMessages.status, 'failed')));
    expect(failed).toEqual([]);
  });

  it('refuses a reply too long to send at all with a clear 422, storing and sending nothing', async () => {
    const phone = '+15551240004';
    await inbound(phone, 'Hi');
    const thread = await until(
      () => threadOf(phone),
      (row) => Boolean(row && row.messageCount >= 2),
    );
    await until(
      async () => stub.messages.filter((m) => m.params.To === phone),
      (list) => list.length > 0,
    );
    const before = stub.messages.length;
    const res = await api('POST', `/api/connections/${connectionId}/conversations/${thread?.id}/messages`, {
      content: 'é'.repeat(10).concat(' ', '😀 '.repeat(1300)).slice(0, 4000),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().error.message).toMatch(/Too long to send on SMS: it would go out as \d+ messages, at most 10/);
    const rows = await t.deps.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, thread?.id as string));
    expect(rows.some((row) => row.role === 'human')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stub.messages.slice(before).filter((m) => m.params.To === phone)).toEqual([]);
  });
});
