import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import {
  startTwilioStub,
  stubContent,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioStub,
} from '../../testing/twilio-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { threads } from '../conversations/schema';
import { channelMessages } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const CONTENT_SID = `HX${'b2'.repeat(16)}`;
let t: TestApp;
let stub: TwilioStub;
let files: Server;
let filesUrl: string;
let admin: string;
let subaccountId: string;
let connectionId: string;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });

const inbound = (from: string, body: string, sid: string) => {
  const params = {
    MessageSid: sid,
    AccountSid: TEST_ACCOUNT_SID,
    From: `whatsapp:${from}`,
    To: 'whatsapp:+15557654321',
    Body: body,
    NumMedia: '0',
  };
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

beforeAll(async () => {
  stub = await startTwilioStub();
  stub.contents.push(
    stubContent({ sid: CONTENT_SID, name: 'appointment_tomorrow', body: 'Hi {{1}}, your appointment is tomorrow.' }),
  );
  // Files a campaign may attach: a small image, a big one, and a zip.
  files = createServer((request, response) => {
    const kinds: Record<string, [string, number]> = {
      '/photo.jpg': ['image/jpeg', 2048],
      '/huge.png': ['image/png', 6 * 1024 * 1024],
      '/archive.zip': ['application/zip', 100],
    };
    const [type, size] = kinds[request.url ?? ''] ?? ['text/plain', 0];
    response.writeHead(type === 'text/plain' ? 404 : 200, { 'content-type': type, 'content-length': String(size) });
    response.end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  t = await startTestApp({
    TWILIO_API_URL: stub.url,
    TWILIO_CONTENT_API_URL: stub.url,
    PUBLIC_URL,
    JOB_POLL_MS: '20',
    PRIVATE_URL_ALLOWLIST: '127.0.0.1',
  });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Clinic Helper' });
  admin = await t.cookieFor(agency.ownerId);
  const created = await api('POST', '/api/channels', {
    subaccountId,
    type: 'whatsapp',
    buildId: agent.id,
    twilio: { accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN },
    sender: { phoneNumber: '+15557654321' },
  });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
});
afterAll(async () => {
  await t.close();
  await stub.close();
  await new Promise((resolve) => files.close(resolve));
});

describe('a WhatsApp agent on Twilio', () => {
  it('answers inside the 24-hour window with whatsapp: addresses', async () => {
    expect((await inbound('+15551110001', 'Hello, can I book?', `SM${'a'.repeat(32)}`)).statusCode).toBe(200);
    const sent = await until(
      async () => stub.messages.filter((m) => m.params.To === 'whatsapp:+15551110001'),
      (list) => list.length > 0,
    );
    expect(sent[0]?.params.From).toBe('whatsapp:+15557654321');
  });

  it('refuses a person’s reply outside the window with SESSION_EXPIRED and stores nothing', async () => {
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, '+15551110001'));
    const path = `/api/connections/${connectionId}/conversations/${thread?.id}/messages`;
    const inside = await api('POST', path, { content: 'Hi, this is Dana from the clinic.' });
    expect(inside.statusCode, inside.body).toBe(200);
    await until(
      async () => stub.messages.filter((m) => m.params.Body === 'Hi, this is Dana from the clinic.'),
      (list) => list.length === 1,
    );
    await t.deps.db.execute(
      sql`UPDATE channel_messages SET created_at = now() - interval '25 hours' WHERE direction = 'inbound' AND contact_phone = '+15551110001'`,
    );
    const before = (await api('GET', `/api/connections/${connectionId}/conversations/${thread?.id}`)).json().messages
      .length;
    const outside = await api('POST', path, { content: 'Are you still there?' });
    expect(outside.statusCode).toBe(410);
    expect(outside.json().error.code).toBe('SESSION_EXPIRED');
    const after = (await api('GET', `/api/connections/${connectionId}/conversations/${thread?.id}`)).json().messages
      .length;
    expect(after).toBe(before);
  });

  it('sends an approved template outside the window, skips free-form there, and checks media', async () => {
    await api('POST', `/api/channels/${subaccountId}/contacts`, {
      phone: '+15551110002',
      name: 'Ada Byron',
      tags: ['wa'],
    });
    await api('POST', `/api/channels/${subaccountId}/contacts`, {
      phone: '+15551110003',
      name: 'Bea Booker',
      tags: ['wa'],
    });
    const media = (mediaUrl: string) =>
      api('POST', `/api/channels/${connectionId}/campaigns`, {
        name: 'Media',
        audience: { type: 'tags', tags: ['wa'] },
        message: 'See attached',
        mediaUrl,
      });
    for (const [mediaUrl, message] of [
      [`${filesUrl}/huge.png`, 'The file is larger than 5 MB.'],
      [`${filesUrl}/archive.zip`, 'this file is application/zip'],
      [`${filesUrl}/missing.png`, 'HTTP 404'],
      ['https://10.0.0.1/x.png', 'public'],
    ] as const) {
      const res = await media(mediaUrl);
      expect(res.statusCode, mediaUrl).toBe(422);
      expect(res.json().error.code).toBe('MEDIA_UPLOAD_FAILED');
      expect(res.json().error.message).toContain(message);
    }
    const attached = await media(`${filesUrl}/photo.jpg`);
    expect(attached.statusCode, attached.body).toBe(201);
    expect(attached.json().mediaUrl).toBe(`${filesUrl}/photo.jpg`);
    const template = await api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Reminder',
      audience: { type: 'tags', tags: ['wa'] },
      whatsappTemplate: { contentSid: CONTENT_SID, variables: { '1': { source: 'first_name' } } },
    });
    expect(template.statusCode, template.body).toBe(201);
    await api('POST', `/api/channels/${connectionId}/campaigns/${template.json().campaignId}/start`);
    const sent = await until(
      async () => stub.messages.filter((m) => m.params.ContentSid === CONTENT_SID),
      (list) => list.length === 2,
    );
    expect(sent.map((m) => m.params.ContentVariables).sort()).toEqual(['{"1":"Ada"}', '{"1":"Bea"}']);
    expect(sent[0]?.params.Body).toBeUndefined();

    const freeForm = await api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Free form',
      audience: { type: 'tags', tags: ['wa'] },
      message: 'Hello {{first_name}}',
    });
    await api('POST', `/api/channels/${connectionId}/campaigns/${freeForm.json().campaignId}/start`);
    const done = await until(
      async () => (await api('GET', `/api/channels/${connectionId}/campaigns/${freeForm.json().campaignId}`)).json(),
      (body) => body.status === 'completed',
    );
    expect(done.figures).toMatchObject({ total: 2, sent: 0, skipped: 2 });
    const rows = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.campaignId, freeForm.json().campaignId)));
    expect(rows).toHaveLength(0);
  });
});
