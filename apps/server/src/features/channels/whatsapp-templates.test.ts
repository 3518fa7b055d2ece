import { eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import {
  type StubSentMessage,
  startTwilioStub,
  stubContent,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioStub,
} from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { threads } from '../conversations/schema';
import { contacts } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const REMINDER = `HX${'c1'.repeat(16)}`;
const ORDER = `HX${'c2'.repeat(16)}`;
const LATE = `HX${'c3'.repeat(16)}`;
const REJECTED = `HX${'c4'.repeat(16)}`;
const PENDING = `HX${'c5'.repeat(16)}`;

let t: TestApp;
let stub: TwilioStub;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;
let sandboxConnectionId: string;

const as = (cookie: () => string) => (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookie() }, ...(payload ? { payload } : {}) });
const api = as(() => admin);
const other = as(() => outsider);

const contentRequests = () => stub.requests.filter((r) => r.path === '/v1/ContentAndApprovals').length;

const inbound = (from: string, body: string, sid: string) => {
  const params = {
    MessageSid: sid,
    AccountSid: TEST_ACCOUNT_SID,
    From: `whatsapp:${from}`,
    To: 'whatsapp:+15557654321',
    Body: body,
    NumMedia: '0',
  };
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/twilio/${connectionId}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(
        TEST_AUTH_TOKEN,
        `${PUBLIC_URL}/api/webhooks/twilio/${connectionId}`,
        params,
      ),
    },
    payload: new URLSearchParams(params).toString(),
  });
};

beforeAll(async () => {
  stub = await startTwilioStub();
  // Two pages of 100: the approved templates, those WhatsApp has not approved, and one on the second page.
  stub.contents.push(
    stubContent({
      sid: REMINDER,
      name: 'appointment_reminder',
      body: 'Hi {{1}}, your appointment is on {{2}}.',
      variables: { '1': 'Ada', '2': 'Monday' },
    }),
    stubContent({
      sid: ORDER,
      name: 'order_code',
      body: 'Hello {{first_name}}, your code is {{code}}.',
      variables: { first_name: 'Ada', code: 'X1' },
    }),
    stubContent({ sid: REJECTED, name: 'rejected_promo', body: 'Buy now {{1}}', status: 'rejected' }),
    stubContent({ sid: PENDING, name: 'pending_one', body: 'Soon', status: 'pending' }),
    ...Array.from({ length: 96 }, (_, i) =>
      stubContent({
        sid: `HX${i.toString(16).padStart(32, '0')}`,
        name: `draft_${i}`,
        body: 'Draft',
        status: 'unsubmitted',
      }),
    ),
    stubContent({ sid: LATE, name: 'thanks_note', body: 'Thank you for your visit!' }),
  );
  t = await startTestApp({
    TWILIO_API_URL: stub.url,
    TWILIO_CONTENT_API_URL: stub.url,
    PUBLIC_URL,
    JOB_POLL_MS: '20',
  });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const stranger = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Clinic Helper' });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(stranger.ownerId);
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'whatsapp',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: '+15557654321' },
  });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
  const sandbox = await api('POST', '/api/channels', { subaccountId, type: 'whatsapp', buildId: agent.id });
  expect(sandbox.statusCode, sandbox.body).toBe(201);
  sandboxConnectionId = sandbox.json().connectionId;
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

describe('the approved WhatsApp templates of a connection', () => {
  it('lists only approved templates, over every page of the Content API, with text and variables', async () => {
    const res = await api('GET', `/api/channels/${connectionId}/whatsapp-templates`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.sandbox).toBe(false);
    expect(list.templates.map((template: { contentSid: string }) => template.contentSid)).toEqual([
      REMINDER,
      ORDER,
      LATE,
    ]);
    expect(list.templates[0]).toMatchObject({
      name: 'appointment_reminder',
      body: 'Hi {{1}}, your appointment is on {{2}}.',
      category: 'UTILITY',
      variables: [
        { key: '1', example: 'Ada' },
        { key: '2', example: 'Monday' },
      ],
    });
    expect(list.templates[1].variables.map((v: { key: string }) => v.key)).toEqual(['first_name', 'code']);
    expect(contentRequests()).toBe(2);
  });

  it('keeps the list briefly, and reads it again when asked', async () => {
    const before = contentRequests();
    expect((await api('GET', `/api/channels/${connectionId}/whatsapp-templates`)).statusCode).toBe(200);
    expect(contentRequests()).toBe(before);
    expect((await api('GET', `/api/channels/${connectionId}/whatsapp-templates?refresh=true`)).statusCode).toBe(200);
    expect(contentRequests()).toBe(before + 2);
  });

  it('answers a Twilio failure with a clear 502, never a 500', async () => {
    stub.failContent({ status: 500, message: 'Internal trouble' });
    const failed = await api('GET', `/api/channels/${connectionId}/whatsapp-templates?refresh=true`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.code).toBe('TWILIO_API_ERROR');
    expect(failed.json().error.message).toContain('Internal trouble');
    stub.failContent({ status: 401, code: 20003, message: 'Authenticate' });
    const refused = await api('GET', `/api/channels/${connectionId}/whatsapp-templates?refresh=true`);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error.code).toBe('TWILIO_AUTH_FAILED');
    expect(refused.json().error.message).toContain('credentials');
  });

  it('offers labelled sample templates on a sandbox connection', async () => {
    const res = await api('GET', `/api/channels/${sandboxConnectionId}/whatsapp-templates`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sandbox).toBe(true);
    expect(res.json().templates.length).toBeGreaterThan(1);
    for (const template of res.json().templates) expect(template.name).toMatch(/^Sandbox: /);
  });
});

describe('a WhatsApp campaign with an approved template', () => {
  const campaign = (whatsappTemplate: object) =>
    api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Codes',
      audience: { type: 'tags', tags: ['codes'] },
      whatsappTemplate,
    });

  it('refuses a template that is not approved and a variable left unmapped', async () => {
    for (const contentSid of [REJECTED, PENDING, `HX${'d9'.repeat(16)}`]) {
      const res = await campaign({ contentSid, variables: {} });
      expect(res.statusCode, contentSid).toBe(422);
      expect(res.json().error.field).toBe('whatsappTemplate.contentSid');
      expect(res.json().error.message).toContain('approved WhatsApp templates');
    }
    const unmapped = await campaign({ contentSid: REMINDER, variables: { '1': { source: 'first_name' } } });
    expect(unmapped.statusCode).toBe(422);
    expect(unmapped.json().error.field).toBe('whatsappTemplate.variables.2');
    expect(unmapped.json().error.message).toBe('Choose what fills {{2}}: a contact field or a fixed text.');
    const emptyText = await campaign({
      contentSid: REMINDER,
      variables: { '1': { source: 'first_name' }, '2': { source: 'text', value: ' ' } },
    });
    expect(emptyText.statusCode).toBe(422);
    expect(emptyText.json().error.field).toBe('whatsappTemplate.variables.2');
    const unknownColumn = await campaign({
      contentSid: ORDER,
      variables: { first_name: { source: 'first_name' }, code: { source: 'custom', value: 'voucher' } },
    });
    expect(unknownColumn.statusCode).toBe(422);
    expect(unknownColumn.json().error.message).toContain('"voucher" is not a field of your contacts');
  });

  it('previews with a sample contact and fills the variables per recipient at the send', async () => {
    for (const [phone, name, code] of [
      ['+15552220001', 'Ada Byron', 'A-1'],
      ['+15552220002', 'Bea Booker', 'B-2'],
    ] as const) {
      const made = await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, name, tags: ['codes'] });
      expect(made.statusCode, made.body).toBe(201);
      await t.deps.db
        .update(contacts)
        .set({ attributes: { code, email: `${name.split(' ')[0]?.toLowerCase()}@example.com` } })
        .where(eq(contacts.id, made.json().contactId));
    }
    const variables = { first_name: { source: 'last_name' }, code: { source: 'custom', value: 'code' } };
    const [ada] = await t.deps.db.select().from(contacts).where(eq(contacts.phone, '+15552220001'));
    const preview = await api('POST', `/api/channels/${connectionId}/whatsapp-templates/preview`, {
      contentSid: ORDER,
      variables,
      contactId: ada?.id,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      body: 'Hello Byron, your code is A-1.',
      contentVariables: { first_name: 'Byron', code: 'A-1' },
      contact: { phone: '+15552220001', name: 'Ada Byron' },
      missing: [],
    });

    const created = await campaign({ contentSid: ORDER, variables });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().whatsappTemplate).toMatchObject({
      contentSid: ORDER,
      name: 'order_code',
      body: 'Hello {{first_name}}, your code is {{code}}.',
      variables,
    });
    const started = await api('POST', `/api/channels/${connectionId}/campaigns/${created.json().campaignId}/start`);
    expect(started.statusCode, started.body).toBe(200);
    const sent = await until(
      async () => stub.messages.filter((m) => m.params.ContentSid === ORDER),
      (list) => list.length === 2,
    );
    expect(sent.map((m) => m.params.ContentVariables).sort()).toEqual([
      '{"first_name":"Booker","code":"B-2"}',
      '{"first_name":"Byron","code":"A-1"}',
    ]);
    expect(sent[0]?.params.Body).toBeUndefined();

    const numbered = await campaign({
      contentSid: REMINDER,
      variables: { '1': { source: 'email' }, '2': { source: 'text', value: 'Friday at 10:00' } },
    });
    expect(numbered.statusCode, numbered.body).toBe(201);
    await api('POST', `/api/channels/${connectionId}/campaigns/${numbered.json().campaignId}/start`);
    const reminders = await until(
      async () => stub.messages.filter((m) => m.params.ContentSid === REMINDER),
      (list) => list.length === 2,
    );
    expect(reminders.map((m) => m.params.ContentVariables).sort()).toEqual([
      '{"1":"ada@example.com","2":"Friday at 10:00"}',
      '{"1":"bea@example.com","2":"Friday at 10:00"}',
    ]);
  });
});

describe('a template from the inbox once the window has closed', () => {
  const phone = '+15553330001';
  let threadId: string;
  const base = () => `/api/connections/${connectionId}/conversations/${threadId}`;

  it('shows the window open after the contact writes, then closed a day later', async () => {
    expect((await inbound(phone, 'Hello, can I book?', `SM${'e'.repeat(32)}`)).statusCode).toBe(200);
    const [thread] = await until(
      () => t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, phone)),
      (rows) => rows.length === 1,
    );
    threadId = thread?.id as string;
    const open = await api('GET', `${base()}/whatsapp-window`);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toMatchObject({ applies: true, open: true });
    expect(Date.parse(open.json().closesAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await t.deps.db.execute(
      sql`UPDATE channel_messages SET created_at = now() - interval '25 hours' WHERE direction = 'inbound' AND contact_phone = ${phone}`,
    );
    const closed = await api('GET', `${base()}/whatsapp-window`);
    expect(closed.json()).toMatchObject({ applies: true, open: false });
    const freeText = await api('POST', `${base()}/messages`, { content: 'Are you still there?' });
    expect(freeText.statusCode).toBe(410);
  });

  it('refuses a template that is not approved or a variable left empty, storing nothing', async () => {
    const before = stub.messages.length;
    const rejected = await api('POST', `${base()}/whatsapp-template`, { contentSid: REJECTED, values: { '1': 'x' } });
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json().error.field).toBe('contentSid');
    const empty = await api('POST', `${base()}/whatsapp-template`, {
      contentSid: REMINDER,
      values: { '1': 'Dana', '2': '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.field).toBe('values.2');
    expect(empty.json().error.message).toBe('Fill in {{2}} before sending.');
    expect(stub.messages.length).toBe(before);
  });

  it('sends the filled template as ContentSid and ContentVariables and stores its text in the thread', async () => {
    const res = await api('POST', `${base()}/whatsapp-template`, {
      contentSid: REMINDER,
      values: { '1': 'Dana', '2': 'Tuesday at 9:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ body: 'Hi Dana, your appointment is on Tuesday at 9:00.', sandbox: false });
    const sent = await until(
      async () =>
        stub.messages.filter((m: StubSentMessage) => m.params.To === `whatsapp:${phone}` && m.params.ContentSid),
      (list) => list.length === 1,
    );
    expect(sent[0]?.params.ContentSid).toBe(REMINDER);
    expect(sent[0]?.params.ContentVariables).toBe('{"1":"Dana","2":"Tuesday at 9:00"}');
    const transcript = (await api('GET', base())).json();
    expect(transcript.messages.at(-1)).toMatchObject({
      role: 'human',
      content: 'Hi Dana, your appointment is on Tuesday at 9:00.',
    });
  });

  it("answers 404 for another account's connection and thread", async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/channels/${connectionId}/whatsapp-templates`],
      [
        'POST',
        `/api/channels/${connectionId}/whatsapp-templates/preview`,
        { contentSid: ORDER, variables: { first_name: { source: 'first_name' }, code: { source: 'phone' } } },
      ],
      ['GET', `${base()}/whatsapp-window`],
      ['POST', `${base()}/whatsapp-template`, { contentSid: REMINDER, values: { '1': 'x', '2': 'y' } }],
    ] as const) {
      const res = await other(method, url, payload);
      expect(res.statusCode, url).toBe(404);
    }
  });
});
