/**
 * Campaign links go out as short links on the platform's domain, one per recipient and address:
 * a visit is counted and sent on to the stored address only. Replies, clicks and conversions the
 * agency's own system reports show on the campaign, and a campaign can be cloned as a draft.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { linksIn, newLinkCode } from './campaign-tracking';
import { campaignLinks, channelMessages } from './schema';

const PUBLIC_URL = 'https://switchboard.example.com';
const OFFER = 'https://shop.example.org/spring?utm=sms&x=1';
let t: TestApp;
let admin: string;
let outsider: string;
let subaccountId: string;
let connectionId: string;
let campaignId: string;
const codes = new Map<string, string>();

const api = (method: 'GET' | 'POST' | 'HEAD', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const base = () => `/api/channels/${connectionId}/campaigns/${campaignId}`;

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_MS: '20', PUBLIC_URL });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other links',
    owner: { email: 'other-links@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  subaccountId = agency.subaccountIds[0] as string;
  const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, name: 'Solar Helper' });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  const created = await api('POST', '/api/channels', { subaccountId, type: 'sms', buildId: agent.id });
  expect(created.statusCode, created.body).toBe(201);
  connectionId = created.json().connectionId;
  for (const [phone, name] of [
    ['+14155553001', 'Ada Lovelace'],
    ['+14155553002', 'Grace Hopper'],
  ])
    expect(
      (await api('POST', `/api/channels/${subaccountId}/contacts`, { phone, name, tags: ['links'] })).statusCode,
    ).toBe(201);
  const campaign = await api('POST', `/api/channels/${connectionId}/campaigns`, {
    name: 'Spring links',
    audience: { type: 'tags', tags: ['links'] },
    message: `Hi {{first_name}}, our spring offer: ${OFFER}. Details at https://example.org/terms!`,
  });
  expect(campaign.statusCode, campaign.body).toBe(201);
  campaignId = campaign.json().campaignId;
  expect((await api('POST', `${base()}/start`)).statusCode).toBe(200);
  await until(
    async () => (await api('GET', base())).json(),
    (body) => body.status === 'completed',
  );
  const sent = await t.deps.db.select().from(channelMessages).where(eq(channelMessages.campaignId, campaignId));
  for (const message of sent) codes.set(message.contactPhone, message.body);
});
afterAll(() => t.close());

describe('short links', () => {
  it('finds the links of a message without the punctuation that ends a sentence', () => {
    expect(linksIn(`Go to ${OFFER}. Or (https://a.example/x), http://b.example/y!`)).toEqual([
      OFFER,
      'https://a.example/x',
      'http://b.example/y',
    ]);
    const code = newLinkCode();
    expect(code).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(Array.from({ length: 200 }, () => newLinkCode())).size).toBe(200);
  });

  it('sends each recipient their own short links in place of the long ones', async () => {
    const ada = codes.get('+14155553001') as string;
    const grace = codes.get('+14155553002') as string;
    expect(ada).not.toContain(OFFER);
    expect(ada).toMatch(
      new RegExp(
        `^Hi Ada, our spring offer: ${PUBLIC_URL}/l/[A-Za-z0-9]{9}\\. Details at ${PUBLIC_URL}/l/[A-Za-z0-9]{9}!$`,
      ),
    );
    const links = await t.deps.db.select().from(campaignLinks).where(eq(campaignLinks.campaignId, campaignId));
    expect(links).toHaveLength(4);
    expect(new Set(links.map((link) => link.code)).size).toBe(4);
    expect(links.every((link) => link.sandbox)).toBe(true);
    expect(ada).not.toBe(grace.replace('Grace', 'Ada'));
  });

  it('counts a click and redirects to the stored address only; HEAD is a preview, an unknown code 404', async () => {
    const ada = codes.get('+14155553001') as string;
    const code = ada.match(/\/l\/([A-Za-z0-9]+)\./)?.[1] as string;
    const first = await t.app.inject({
      method: 'GET',
      url: `/l/${code}?to=https://evil.example&url=https://evil.example`,
    });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(OFFER);
    const preview = await t.app.inject({ method: 'HEAD', url: `/l/${code}` });
    expect(preview.statusCode).toBe(302);
    await t.app.inject({ method: 'GET', url: `/l/${code}` });
    const [link] = await t.deps.db.select().from(campaignLinks).where(eq(campaignLinks.code, code));
    expect(link).toMatchObject({ clicks: 2, previews: 1, url: OFFER });
    expect(link?.firstClickedAt).toBeInstanceOf(Date);

    for (const unknown of ['AAAAAAAAA', 'nope', '..%2F..%2Fetc', 'https:%2F%2Fevil.example']) {
      const res = await t.app.inject({ method: 'GET', url: `/l/${unknown}` });
      expect(res.statusCode, unknown).toBe(404);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('Link not found');
    }
    const tracking = (await api('GET', `${base()}/tracking`)).json();
    expect(tracking).toMatchObject({ sent: 2, links: 4, clicks: 2, uniqueClickers: 1, previews: 1, sandbox: true });
  });
});

describe('replies and conversions', () => {
  it('counts a reply after the send and lists it with its thread', async () => {
    const reply = await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, {
      from: '+14155553002',
      body: 'Is the offer valid on Sunday?',
    });
    expect(reply.statusCode).toBe(202);
    const tracking = await until(
      async () => (await api('GET', `${base()}/tracking`)).json(),
      (body) => body.replies === 1,
    );
    expect(tracking).toMatchObject({ replies: 1, converted: 2 });
    expect(tracking.points.reduce((sum: number, p: { replies: number }) => sum + p.replies, 0)).toBe(1);
    const replies = (await api('GET', `${base()}/replies`)).json().replies;
    expect(replies).toEqual([
      expect.objectContaining({ phone: '+14155553002', name: 'Grace Hopper', body: 'Is the offer valid on Sunday?' }),
    ]);
  });

  it('records a reported conversion once per external id, by phone or contact id', async () => {
    const url = `${base()}/conversions`;
    const first = await api('POST', url, { phone: '(415) 555-3001', value: 49.5, externalId: 'order-1' });
    expect(first.statusCode, first.body).toBe(201);
    const again = await api('POST', url, { phone: '+14155553001', value: 49.5, externalId: 'order-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ conversionId: first.json().conversionId, created: false });
    const tracking = (await api('GET', `${base()}/tracking`)).json();
    expect(tracking).toMatchObject({ reported: 1, reportedValue: 49.5 });

    expect((await api('POST', url, { phone: '+14155559999' })).statusCode).toBe(404);
    expect((await api('POST', url, {})).statusCode).toBe(422);
    expect((await api('POST', url, { phone: '+14155553001', value: -1 })).statusCode).toBe(422);
    // Another agency cannot record or read anything on this campaign.
    expect((await api('POST', url, { phone: '+14155553001', externalId: 'x' }, outsider)).statusCode).toBe(404);
    expect((await api('GET', `${base()}/tracking`, undefined, outsider)).statusCode).toBe(404);
    expect((await api('GET', `${base()}/replies`, undefined, outsider)).statusCode).toBe(404);
    expect((await api('POST', `${base()}/clone`, undefined, outsider)).statusCode).toBe(404);
  });
});

describe("conversions from the agency's own system", () => {
  it('accepts an API key of the sub-account, and refuses an external id already used for another recipient', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie: admin, 'x-subaccount-id': subaccountId },
      payload: { name: 'Shop orders' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().key as string;
    const contact = (await api('GET', `${base()}/replies`)).json().replies[0].contactId as string;
    const res = await t.app.inject({
      method: 'POST',
      url: `${base()}/conversions`,
      headers: { authorization: `Bearer ${key}` },
      payload: { contactId: contact, externalId: 'order-2', value: 10 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const clash = await api('POST', `${base()}/conversions`, { phone: '+14155553001', externalId: 'order-2' });
    expect(clash.statusCode).toBe(409);
    const tracking = (await api('GET', `${base()}/tracking`)).json();
    expect(tracking).toMatchObject({ reported: 2, reportedValue: 59.5 });
  });
});

describe('the segment estimate', () => {
  it('counts the message with short links in place of the long ones', async () => {
    const long = `https://shop.example.org/${'spring-offer/'.repeat(20)}`;
    const draft = await api('POST', `/api/channels/${connectionId}/campaigns`, {
      name: 'Long link',
      audience: { type: 'tags', tags: ['links'] },
      message: `Our offer: ${long}`,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const estimate = await api('GET', `/api/channels/${connectionId}/campaigns/${draft.json().campaignId}/estimate`);
    expect(estimate.statusCode, estimate.body).toBe(200);
    expect(estimate.json()).toMatchObject({ segmentsPerMessage: 1, segments: 2 });
  });
});

describe('clone', () => {
  it('creates a draft copy with the same message and audience and no schedule', async () => {
    const res = await api('POST', `${base()}/clone`);
    expect(res.statusCode, res.body).toBe(201);
    const source = (await api('GET', base())).json();
    expect(res.json()).toMatchObject({
      name: 'Spring links (copy)',
      status: 'draft',
      message: source.message,
      audience: source.audience,
      sendAt: null,
    });
    expect(res.json().campaignId).not.toBe(campaignId);

    // Sent, the copy has its own links; a reply after it belongs to the copy, not to the first campaign.
    const copy = `/api/channels/${connectionId}/campaigns/${res.json().campaignId}`;
    expect((await api('POST', `${copy}/start`)).statusCode).toBe(200);
    await until(
      async () => (await api('GET', copy)).json(),
      (body) => body.status === 'completed',
    );
    await api('POST', `/api/channels/${connectionId}/sandbox/inbound`, { from: '+14155553001', body: 'Booked!' });
    const replies = await until(
      async () => (await api('GET', `${copy}/replies`)).json().replies,
      (list: unknown[]) => list.length === 1,
    );
    expect(replies[0]).toMatchObject({ phone: '+14155553001', body: 'Booked!' });
    const first = (await api('GET', `${base()}/replies`)).json().replies;
    expect(first.map((reply: { body: string }) => reply.body)).toEqual(['Is the offer valid on Sunday?']);
  });
});
