import { createHmac } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import {
  type GraphStub,
  startGraphStub,
  TEST_META_APP_SECRET,
  TEST_OAUTH_PAGE,
  TEST_OAUTH_PAGE_TOKEN,
  TEST_PAGE,
  TEST_PAGE_TOKEN,
  TEST_PLATFORM_APP_SECRET,
} from '../../testing/graph-stub';
import { startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { connections } from '../connections/schema';
import { threads } from '../conversations/schema';
import { findChannel } from './connections';
import { queueOutbound } from './outbound';
import { channelAccounts, channelMessages } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const META_APP_ID = '123456789012345';
let t: TestApp;
let stub: GraphStub;
let admin: string;
let outsider: string;
let subaccountId: string;
let secondSubaccountId: string;
let accountId: string;
let otherAccountId: string;
let otherSubaccountId: string;
let agentId: string;
let connectionId: string;
let verifyToken: string;

const sign = (raw: string, secret = TEST_META_APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** Posts a webhook as Meta does: JSON, signed with the app secret over the raw body (or not). */
const webhook = (
  id: string,
  body: unknown,
  signature: 'good' | 'bad' | 'none' = 'good',
  secret = TEST_META_APP_SECRET,
) => {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature === 'good') headers['x-hub-signature-256'] = sign(raw, secret);
  if (signature === 'bad') headers['x-hub-signature-256'] = sign(raw, 'b'.repeat(32));
  return t.app.inject({ method: 'POST', url: `/api/webhooks/meta/${id}`, headers, payload: raw });
};

type Message = Record<string, unknown>;
const dm = (from: string, mid: string, message: Message, accountId = TEST_PAGE.instagramAccountId) => ({
  object: 'instagram',
  entry: [
    {
      id: accountId,
      time: Date.now(),
      messaging: [
        { sender: { id: from }, recipient: { id: accountId }, timestamp: Date.now(), message: { mid, ...message } },
      ],
    },
  ],
});

const inboundOf = (from: string) =>
  t.deps.db
    .select()
    .from(channelMessages)
    .where(and(eq(channelMessages.direction, 'inbound'), eq(channelMessages.contactPhone, from)));
const sentTo = (recipient: string) => stub.messages.filter((message) => message.recipient === recipient);
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  stub = await startGraphStub();
  t = await startTestApp({
    META_GRAPH_URL: stub.url,
    META_APP_ID,
    META_APP_SECRET: TEST_PLATFORM_APP_SECRET,
    META_WEBHOOK_VERIFY_TOKEN: 'platform-verify-token',
    PUBLIC_URL,
    JOB_POLL_MS: '20',
  });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other',
    owner: { email: 'other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  secondSubaccountId = agency.subaccountIds[1] as string;
  accountId = agency.accountId;
  otherAccountId = other.accountId;
  otherSubaccountId = other.subaccountIds[0] as string;
  agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Clinic Helper' })).id;
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

describe('an Instagram agent on Meta', () => {
  it('refuses a wrong page token with META_AUTH_FAILED and stores nothing', async () => {
    const res = await api('POST', '/api/channels', {
      subaccountId,
      type: 'instagram',
      buildId: agentId,
      meta: { pageAccessToken: `EAAG${'z'.repeat(40)}`, appSecret: TEST_META_APP_SECRET },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatchObject({ code: 'META_AUTH_FAILED' });
    expect(res.json().error.message).toContain('Meta refused these credentials');
    const twilioOnInstagram = await api('POST', '/api/channels', {
      subaccountId,
      type: 'instagram',
      buildId: agentId,
      twilio: { accountSid: `AC${'a1'.repeat(16)}`, authToken: 'f'.repeat(32) },
    });
    expect(twilioOnInstagram.statusCode).toBe(422);
    const [{ n } = { n: -1 }] = await t.deps.db
      .select({ n: count() })
      .from(connections)
      .where(eq(connections.type, 'instagram'));
    expect(n).toBe(0);
  });

  it('is not saved when Meta refuses to subscribe the page to the messaging webhooks, and says why', async () => {
    for (const answer of [
      { status: 403, code: 200, message: 'Requires pages_manage_metadata permission' },
      { status: 500, code: 2, message: 'Service temporarily unavailable' },
    ]) {
      stub.failSubscribe(answer);
      const res = await api('POST', '/api/channels', {
        subaccountId,
        type: 'instagram',
        buildId: agentId,
        meta: { pageAccessToken: TEST_PAGE_TOKEN, appSecret: TEST_META_APP_SECRET },
      });
      expect(res.statusCode, res.body).toBe(answer.status === 403 ? 401 : 502);
      expect(res.json().error.code).toBe(answer.status === 403 ? 'META_AUTH_FAILED' : 'META_API_ERROR');
      expect(res.json().error.message).toContain(answer.message);
      expect(res.json().error.message).toContain('not live until');
    }
    const [{ n } = { n: -1 }] = await t.deps.db
      .select({ n: count() })
      .from(channelAccounts)
      .where(eq(channelAccounts.externalAccountId, TEST_PAGE.instagramAccountId));
    expect(n).toBe(0);
    expect(stub.subscribed).not.toContain(TEST_PAGE.pageId);
  });

  it('verifies the credentials with GET /me, stores them encrypted and shows the callback URL and verify token', async () => {
    const before = stub.requests.length;
    const res = await api('POST', '/api/channels', {
      subaccountId,
      type: 'instagram',
      buildId: agentId,
      meta: { pageAccessToken: TEST_PAGE_TOKEN, appSecret: TEST_META_APP_SECRET },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    connectionId = body.connectionId;
    verifyToken = body.instagram.verifyToken;
    expect(body).toMatchObject({
      type: 'instagram',
      status: 'live',
      transport: 'meta',
      credentialKind: 'page_token',
      secretLast4: TEST_PAGE_TOKEN.slice(-4),
      webhookUrl: `${PUBLIC_URL}/api/webhooks/meta/${connectionId}`,
      instagram: { accountId: TEST_PAGE.instagramAccountId, username: TEST_PAGE.username, pageId: TEST_PAGE.pageId },
    });
    expect(verifyToken).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(JSON.stringify(body)).not.toContain(TEST_PAGE_TOKEN);
    expect(JSON.stringify(body)).not.toContain(TEST_META_APP_SECRET);
    // The pasted token's page is subscribed to the messaging webhooks before the connection is live.
    expect(stub.requests.slice(before)).toEqual([
      { method: 'GET', path: '/v21.0/me' },
      { method: 'POST', path: `/v21.0/${TEST_PAGE.pageId}/subscribed_apps` },
    ]);
    expect(stub.subscribedFields.get(TEST_PAGE.pageId)).toEqual(
      expect.arrayContaining(['messages', 'messaging_postbacks']),
    );
    const [stored] = await t.deps.db
      .select()
      .from(channelAccounts)
      .where(eq(channelAccounts.connectionId, connectionId));
    expect(stored?.secretEncrypted).toMatch(/^v1:/);
    expect(stored?.webhookTokenEncrypted).not.toContain(TEST_META_APP_SECRET);
    expect(stored?.verifyTokenEncrypted).not.toContain(verifyToken);
  });

  it('answers the subscription handshake only for the right verify token', async () => {
    const handshake = (token: string, mode = 'subscribe') =>
      t.app.inject({
        url: `/api/webhooks/meta/${connectionId}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`,
      });
    const wrong = await handshake('not-the-token');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('WEBHOOK_VALIDATION_FAILED');
    expect((await handshake(verifyToken, 'unsubscribe')).statusCode).toBe(403);
    const right = await handshake(verifyToken);
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe('1158201444');
    expect((await t.app.inject({ url: '/api/webhooks/meta/con_doesnotexist?hub.mode=subscribe' })).statusCode).toBe(
      404,
    );
    const view = await api('GET', `/api/channels/${connectionId}`);
    expect(view.json().instagram.webhookVerifiedAt).not.toBeNull();
  });

  it('refuses unsigned and wrongly signed webhooks with 403 WEBHOOK_VALIDATION_FAILED and stores nothing', async () => {
    for (const signature of ['none', 'bad'] as const) {
      const res = await webhook(connectionId, dm('5550001', 'mid.unsigned', { text: 'Hello' }), signature);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('WEBHOOK_VALIDATION_FAILED');
    }
    // Signed over other bytes than were sent.
    const raw = JSON.stringify(dm('5550001', 'mid.unsigned', { text: 'Hello' }));
    const tampered = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/meta/${connectionId}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw) },
      payload: raw.replace('Hello', 'Hullo'),
    });
    expect(tampered.statusCode).toBe(403);
    const [{ n } = { n: -1 }] = await t.deps.db.select({ n: count() }).from(channelMessages);
    expect(n).toBe(0);
    const notJson = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/meta/${connectionId}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign('{nope') },
      payload: '{nope',
    });
    expect(notJson.statusCode).toBe(422);
    expect(notJson.json().error.code).toBe('WEBHOOK_MISSING_BODY');
  });

  it('answers a direct message through the agent once, ignoring a duplicate and echoes', async () => {
    const from = '5550002';
    const res = await webhook(connectionId, dm(from, 'mid.first', { text: 'What are your opening hours?' }));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('EVENT_RECEIVED');
    expect(
      (await webhook(connectionId, dm(from, 'mid.first', { text: 'What are your opening hours?' }))).statusCode,
    ).toBe(200);
    // Meta echoes the business's own messages back: never stored, never answered.
    await webhook(connectionId, dm(from, 'mid.echo', { text: 'Our answer', is_echo: true }));
    const sent = await until(
      async () => sentTo(from),
      (list) => list.length > 0,
    );
    expect(sent[0]?.token).toBe(TEST_PAGE_TOKEN);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await inboundOf(from)).toHaveLength(1);
    expect(sentTo(from)).toHaveLength(1);
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, from));
    expect(thread).toMatchObject({ channel: 'instagram', channelRef: connectionId, agentId });
    const [outbound] = await t.deps.db
      .select()
      .from(channelMessages)
      .where(and(eq(channelMessages.direction, 'outbound'), eq(channelMessages.contactPhone, from)));
    expect(outbound).toMatchObject({ status: 'sent', providerSid: sent[0]?.id, transport: 'meta' });
  });

  it('makes story replies and story mentions threads too', async () => {
    await webhook(
      connectionId,
      dm('5550003', 'mid.story', {
        text: 'Love this!',
        reply_to: { story: { url: 'https://lookaside.fbsbx.com/story/1', id: '1' } },
      }),
    );
    await webhook(
      connectionId,
      dm('5550004', 'mid.mention', {
        attachments: [{ type: 'story_mention', payload: { url: 'https://lookaside.fbsbx.com/story/2' } }],
      }),
    );
    const reply = await until(
      () => inboundOf('5550003'),
      (rows) => rows.length > 0,
    );
    expect(reply[0]).toMatchObject({
      body: '[Replied to your story] Love this!',
      mediaUrls: ['https://lookaside.fbsbx.com/story/1'],
    });
    const mention = await until(
      () => inboundOf('5550004'),
      (rows) => rows.length > 0,
    );
    expect(mention[0]?.body).toBe('[Mentioned you in their story]');
    const both = await until(
      async () => t.deps.db.select().from(threads).where(eq(threads.channel, 'instagram')),
      (rows) => rows.length >= 3,
    );
    expect(both.map((row) => row.contactIdentifier)).toEqual(expect.arrayContaining(['5550003', '5550004']));
  });

  it('shows who wrote: the profile is read once per Instagram-scoped id, the id only when Meta does not share it', async () => {
    const profileReads = () => stub.requests.filter((r) => /\/v21\.0\/\d+$/.test(r.path) && r.method === 'GET');
    stub.profiles.set('5550091', { username: 'jane.doe', name: 'Jane Doe' });
    const before = profileReads().length;
    await webhook(connectionId, dm('5550091', 'mid.jane1', { text: 'Are you open today?' }));
    await until(
      async () => sentTo('5550091'),
      (list) => list.length >= 1,
    );
    await webhook(connectionId, dm('5550091', 'mid.jane2', { text: 'And on Sundays?' }));
    await webhook(connectionId, dm('5550090', 'mid.private', { text: 'Hello' }));
    await until(
      async () => [...sentTo('5550091'), ...sentTo('5550090')],
      (list) => list.length >= 3,
    );
    // The first message of 5550091 read the profile; the second did not; 5550090 was refused.
    expect(profileReads().length - before).toBe(2);
    expect(
      profileReads()
        .map((r) => r.path)
        .filter((path) => /55500(91|90)$/.test(path)),
    ).toEqual(['/v21.0/5550091', '/v21.0/5550090']);
    const inbox = await api('GET', `/api/connections/${connectionId}/conversations`);
    expect(inbox.statusCode, inbox.body).toBe(200);
    const byId = Object.fromEntries(
      (inbox.json().threads as { contactIdentifier: string }[]).map((row) => [row.contactIdentifier, row]),
    );
    expect(byId['5550091']).toMatchObject({ contactUsername: 'jane.doe', contactName: 'Jane Doe' });
    expect(byId['5550090']).toMatchObject({ contactUsername: null, contactName: null });
    const list = await api('GET', `/api/agents/${agentId}/threads`);
    const janes = (list.json().items as { contactIdentifier: string; contactUsername: string | null }[]).filter(
      (row) => row.contactIdentifier === '5550091',
    );
    expect(janes[0]?.contactUsername).toBe('jane.doe');
    // Another tenant sees none of it.
    expect((await api('GET', `/api/connections/${connectionId}/conversations`, undefined, outsider)).statusCode).toBe(
      404,
    );
  });

  it("ignores another account's events signed with this connection's secret", async () => {
    const res = await webhook(
      connectionId,
      dm('5550005', 'mid.foreign', { text: 'Hi' }, TEST_OAUTH_PAGE.instagramAccountId),
    );
    expect(res.statusCode).toBe(200);
    expect(await inboundOf('5550005')).toHaveLength(0);
  });

  it('takes over from the inbox: the agent is silent, the person’s reply goes out through Meta', async () => {
    const from = '5550002';
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, from));
    const base = `/api/connections/${connectionId}/conversations/${thread?.id}`;
    expect((await api('POST', `${base}/takeover`, { takeOver: true })).statusCode).toBe(200);
    await webhook(connectionId, dm(from, 'mid.second', { text: 'Can I talk to a person?' }));
    await until(
      () => inboundOf(from),
      (rows) => rows.length === 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sentTo(from)).toHaveLength(1);
    const human = await api('POST', `${base}/messages`, { content: 'Hi, this is Dana from the clinic.' });
    expect(human.statusCode, human.body).toBe(200);
    const sent = await until(
      async () => sentTo(from),
      (list) => list.length === 2,
    );
    expect(sent[1]?.text).toBe('Hi, this is Dana from the clinic.');
  });

  it('sends nothing outside the 24-hour window and records why', async () => {
    const from = '5550002';
    const [thread] = await t.deps.db.select().from(threads).where(eq(threads.contactIdentifier, from));
    await t.deps.db
      .update(channelMessages)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(and(eq(channelMessages.direction, 'inbound'), eq(channelMessages.contactPhone, from)));
    const human = await api('POST', `/api/connections/${connectionId}/conversations/${thread?.id}/messages`, {
      content: 'Are you still there?',
    });
    expect(human.statusCode).toBe(410);
    expect(human.json().error).toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(human.json().error.message).toContain('24-hour');
    const channel = await findChannel(t.deps.db, connectionId);
    const before = sentTo(from).length;
    const [id] = await queueOutbound(t.deps, channel as NonNullable<typeof channel>, {
      to: from,
      parts: ['A late answer'],
      key: 'test:late',
      origin: 'live',
    });
    const row = await until(
      async () =>
        (
          await t.deps.db
            .select()
            .from(channelMessages)
            .where(eq(channelMessages.id, id as string))
        )[0],
      (value) => value?.status === 'failed',
    );
    expect(row).toMatchObject({ status: 'failed', errorCode: 'SESSION_EXPIRED' });
    expect(row?.errorMessage).toContain("Meta's 24-hour messaging window");
    expect(sentTo(from)).toHaveLength(before);
  });

  it("answers 404 for another tenant's connection and one connection per Instagram account", async () => {
    expect((await api('GET', `/api/channels/${connectionId}`, undefined, outsider)).statusCode).toBe(404);
    expect((await api('PATCH', `/api/channels/${connectionId}`, { connectionName: 'Mine' }, outsider)).statusCode).toBe(
      404,
    );
    expect(
      (await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from: 'someone', body: 'hi' }, outsider))
        .statusCode,
    ).toBe(404);
    const again = await api('POST', '/api/channels', {
      subaccountId: secondSubaccountId,
      type: 'instagram',
      buildId: (await seedAgent(t.deps.db, { accountId, subaccountId: secondSubaccountId, name: 'Second' })).id,
      meta: { pageAccessToken: TEST_PAGE_TOKEN, appSecret: TEST_META_APP_SECRET },
    });
    expect(again.statusCode).toBe(409);
  });

  it('connects one Instagram account once, even when two saves arrive together', async () => {
    const token = `EAAG${'r'.repeat(40)}`;
    stub.pages.set(token, {
      pageId: '100000000000003',
      name: 'Race',
      instagramAccountId: '17841400000000003',
      username: 'race',
    });
    const create = async (sub: string) =>
      api('POST', '/api/channels', {
        subaccountId: sub,
        type: 'instagram',
        buildId: (await seedAgent(t.deps.db, { accountId, subaccountId: sub, name: `Race ${sub}` })).id,
        meta: { pageAccessToken: token, appSecret: TEST_META_APP_SECRET },
      });
    const results = await Promise.all([create(subaccountId), create(secondSubaccountId)]);
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    const loser = results.find((res) => res.statusCode === 409);
    expect(loser?.json().error.code).toBe('CONFLICT');
    const winner = results.find((res) => res.statusCode === 201)?.json().connectionId;
    await t.deps.db.delete(connections).where(eq(connections.id, winner));
  });

  it('marks the connection in error when Meta refuses the stored token', async () => {
    stub.failNext({ status: 400, code: 190, message: 'Error validating access token: Session has expired' });
    await webhook(connectionId, dm('5550006', 'mid.expired', { text: 'Hello?' }));
    const view = await until(
      async () => (await api('GET', `/api/channels/${connectionId}`)).json(),
      (body) => body.status === 'error',
    );
    expect(view).toMatchObject({ status: 'error', statusCode: 'META_AUTH_FAILED' });
    // Saving the credentials again brings it back.
    const saved = await api('PATCH', `/api/channels/${connectionId}`, {
      meta: { pageAccessToken: TEST_PAGE_TOKEN, appSecret: TEST_META_APP_SECRET },
    });
    expect(saved.json()).toMatchObject({ status: 'live', statusCode: null });
  });
});

describe('Instagram sandbox and Connect with Meta', () => {
  let sandboxId: string;

  it('connects the sandbox without credentials and answers a username', async () => {
    // An agent of another sub-account cannot answer here.
    const foreignAgent = await api('POST', '/api/channels', {
      subaccountId: secondSubaccountId,
      type: 'instagram',
      buildId: agentId,
    });
    expect(foreignAgent.statusCode).toBe(404);
    const studioAgent = await seedAgent(t.deps.db, {
      accountId,
      subaccountId: secondSubaccountId,
      name: 'Studio Helper',
    });
    const sandbox = await api('POST', '/api/channels', {
      subaccountId: secondSubaccountId,
      type: 'instagram',
      buildId: studioAgent.id,
    });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    sandboxId = sandbox.json().connectionId;
    expect(sandbox.json()).toMatchObject({ transport: 'sandbox', status: 'live', instagram: { accountId: null } });
    const bad = await api('POST', `/api/channels/${sandboxId}/sandbox/inbound`, { from: 'not a name!', body: 'hi' });
    expect(bad.statusCode).toBe(422);
    const sent = await api('POST', `/api/channels/${sandboxId}/sandbox/inbound`, {
      from: '@ana.visits',
      body: 'Hello',
    });
    expect(sent.statusCode).toBe(202);
    const messages = await until(
      async () => (await api('GET', `/api/channels/${sandboxId}/messages`)).json().messages,
      (list: { direction: string }[]) => list.some((message) => message.direction === 'outbound'),
    );
    expect(messages[0]).toMatchObject({ contactPhone: 'ana.visits', transport: 'sandbox' });
    // A sandbox connection has no app secret: its Meta webhook refuses everything.
    expect((await webhook(sandboxId, dm('5550007', 'mid.sandbox', { text: 'x' }))).statusCode).toBe(403);
  });

  it('applies the plan connection limit as for SMS', async () => {
    const agent = await seedAgent(t.deps.db, {
      accountId: otherAccountId,
      subaccountId: otherSubaccountId,
      name: 'Free Helper',
    });
    const body = { subaccountId: otherSubaccountId, type: 'instagram', buildId: agent.id };
    expect((await api('POST', '/api/channels', body, outsider)).statusCode).toBe(201);
    const second = await api('POST', '/api/channels', body, outsider);
    expect(second.statusCode).toBe(403);
    expect(second.json().error.code).toBe('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
  });

  it('runs Meta OAuth with a state bound to the browser', async () => {
    const agents = await seedAgent(t.deps.db, { accountId, subaccountId: secondSubaccountId, name: 'OAuth Helper' });
    const start = await api('POST', '/api/channels/instagram/oauth/start', {
      subaccountId: secondSubaccountId,
      buildId: agents.id,
    });
    expect(start.statusCode, start.body).toBe(200);
    const { url, connectionId: pendingId } = start.json();
    const dialog = new URL(url);
    expect(dialog.origin + dialog.pathname).toBe('https://www.facebook.com/v21.0/dialog/oauth');
    expect(dialog.searchParams.get('client_id')).toBe(META_APP_ID);
    expect(dialog.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/channels/instagram/oauth/callback`);
    const state = dialog.searchParams.get('state') as string;
    const cookie = (start.headers['set-cookie'] as string).split(';')[0] as string;
    const pending = (await api('GET', `/api/channels/${pendingId}`)).json();
    expect(pending).toMatchObject({ status: 'pending_connection', appSlug: 'instagram' });

    const callback = (query: string, withCookie = true) =>
      t.app.inject({
        url: `/api/channels/instagram/oauth/callback?${query}`,
        headers: { cookie: withCookie ? `${admin}; ${cookie}` : admin },
      });
    // Another browser (no cookie) or a forged secret: refused, the connection stays pending.
    expect((await callback(`code=good-code&state=${encodeURIComponent(state)}`, false)).statusCode).toBe(403);
    expect((await callback(`code=good-code&state=${pendingId}.forged`)).statusCode).toBe(403);
    // Another tenant cannot complete it.
    const foreign = await t.app.inject({
      url: `/api/channels/instagram/oauth/callback?code=good-code&state=${encodeURIComponent(state)}`,
      headers: { cookie: `${outsider}; ${cookie}` },
    });
    expect(foreign.statusCode).toBe(404);
    const done = await callback(`code=good-code&state=${encodeURIComponent(state)}`);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe(`/${pendingId}/link3?connected=instagram`);
    const live = (await api('GET', `/api/channels/${pendingId}`)).json();
    expect(live).toMatchObject({
      status: 'live',
      transport: 'meta',
      credentialKind: 'oauth',
      instagram: { accountId: TEST_OAUTH_PAGE.instagramAccountId, pageId: TEST_OAUTH_PAGE.pageId },
    });
    expect(stub.subscribed).toContain(TEST_OAUTH_PAGE.pageId);
    // The state is spent.
    expect((await callback(`code=good-code&state=${encodeURIComponent(state)}`)).statusCode).toBe(403);

    // The platform app's webhook: its own verify token, its own secret, routed by account id.
    const handshake = (token: string) =>
      t.app.inject({ url: `/api/webhooks/meta/app?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42` });
    expect((await handshake('wrong-token')).statusCode).toBe(403);
    expect((await handshake('platform-verify-token')).body).toBe('42');
    const studioDm = dm(
      '5550010',
      'mid.studio',
      { text: 'Do you have classes today?' },
      TEST_OAUTH_PAGE.instagramAccountId,
    );
    // Signed by another app (the clinic's): ignored on the clinic's URL, refused on the platform app's.
    expect((await webhook(connectionId, studioDm)).statusCode).toBe(200);
    expect((await webhook('app', studioDm)).statusCode).toBe(403);
    expect(await inboundOf('5550010')).toHaveLength(0);
    expect((await webhook('app', studioDm, 'good', TEST_PLATFORM_APP_SECRET)).statusCode).toBe(200);
    const answered = await until(
      async () => sentTo('5550010'),
      (list) => list.length > 0,
    );
    expect(answered[0]?.token).toBe(TEST_OAUTH_PAGE_TOKEN);
    const [stored] = await inboundOf('5550010');
    expect(stored?.connectionId).toBe(pendingId);
  });

  it('lets the agency pick the page when several pages with an Instagram account are shared', async () => {
    const shopToken = `EAAG${'s'.repeat(40)}`;
    const shop = {
      pageId: '100000000000033',
      name: 'Shop Page',
      instagramAccountId: '17841400000000033',
      username: 'shop.example',
    };
    stub.oauthPages.push({ token: shopToken, page: shop });
    const helper = await seedAgent(t.deps.db, { accountId, subaccountId, name: 'Shop Helper' });
    const start = await api('POST', '/api/channels/instagram/oauth/start', { subaccountId, buildId: helper.id });
    expect(start.statusCode, start.body).toBe(200);
    const { url, connectionId: pendingId } = start.json();
    const state = new URL(url).searchParams.get('state') as string;
    const cookie = (start.headers['set-cookie'] as string).split(';')[0] as string;
    const done = await t.app.inject({
      url: `/api/channels/instagram/oauth/callback?code=good-code&state=${encodeURIComponent(state)}`,
      headers: { cookie: `${admin}; ${cookie}` },
    });
    // No silent first page: the connection waits for the agency's choice.
    expect(done.headers.location).toBe(`/${pendingId}/link3?choose=instagram`);
    expect((await api('GET', `/api/channels/${pendingId}`)).json()).toMatchObject({ status: 'pending_connection' });
    expect(stub.subscribed).not.toContain(shop.pageId);

    const choice = await api('GET', `/api/channels/${pendingId}/instagram/pages`);
    expect(choice.statusCode, choice.body).toBe(200);
    expect(choice.json().pages).toEqual([
      {
        pageId: TEST_OAUTH_PAGE.pageId,
        pageName: TEST_OAUTH_PAGE.name,
        instagramAccountId: TEST_OAUTH_PAGE.instagramAccountId,
        username: TEST_OAUTH_PAGE.username,
      },
      {
        pageId: shop.pageId,
        pageName: shop.name,
        instagramAccountId: shop.instagramAccountId,
        username: shop.username,
      },
    ]);
    expect(choice.body).not.toContain(shopToken);
    // Another tenant cannot read or make the choice.
    expect((await api('GET', `/api/channels/${pendingId}/instagram/pages`, undefined, outsider)).statusCode).toBe(404);
    expect(
      (await api('POST', `/api/channels/${pendingId}/instagram/page`, { pageId: shop.pageId }, outsider)).statusCode,
    ).toBe(404);
    // A page that was not shared, or one already connected elsewhere: refused, still pending.
    const unknown = await api('POST', `/api/channels/${pendingId}/instagram/page`, { pageId: '999' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.message).toBe('Pick one of the pages shared with Meta.');
    const taken = await api('POST', `/api/channels/${pendingId}/instagram/page`, { pageId: TEST_OAUTH_PAGE.pageId });
    expect(taken.statusCode).toBe(409);
    // Meta refusing the subscription is said, and the choice can be made again.
    stub.failSubscribe({ status: 403, code: 200, message: 'Requires pages_manage_metadata permission' });
    const refused = await api('POST', `/api/channels/${pendingId}/instagram/page`, { pageId: shop.pageId });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.message).toContain('not live until the page is subscribed');
    expect((await api('GET', `/api/channels/${pendingId}`)).json().status).toBe('pending_connection');

    const picked = await api('POST', `/api/channels/${pendingId}/instagram/page`, { pageId: shop.pageId });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json()).toMatchObject({
      status: 'live',
      credentialKind: 'oauth',
      instagram: { accountId: shop.instagramAccountId, pageId: shop.pageId, username: shop.username },
    });
    expect(stub.subscribedFields.get(shop.pageId)).toEqual(expect.arrayContaining(['messages', 'messaging_postbacks']));
    // The choice is spent.
    expect((await api('GET', `/api/channels/${pendingId}/instagram/pages`)).statusCode).toBe(404);
    const [stored] = await t.deps.db.select().from(channelAccounts).where(eq(channelAccounts.connectionId, pendingId));
    expect(stored?.oauthPagesEncrypted).toBeNull();
  });
});
