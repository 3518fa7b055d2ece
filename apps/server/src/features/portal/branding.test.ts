import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { agencyDomains } from '../domains/schema';

/**
 * An agency's branding: its manager edits it (slug rules, a taken slug is 409); a sign-in page
 * reads it by slug, or by the request's host only when that host is the agency's verified domain.
 */
let t: TestApp;
let acme: SeededAgency;
let rival: SeededAgency;
let owner: string;
let rivalOwner: string;

const SCALE = 'sb_scale_month_10000';

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://app.switchboard.test' });
  acme = await seedAgency(t.deps.db, {
    accountName: 'Acme Automation',
    owner: { email: 'owner@acme-brand.test', name: 'Acme Owner' },
    subaccounts: ['Acme HQ', 'Bakery'],
    plan: SCALE,
    users: [
      { email: 'member@acme-brand.test', name: 'Member', role: 'member', subaccounts: ['Bakery'] },
      { email: 'client@acme-brand.test', name: 'Client', role: 'client', subaccounts: ['Bakery'] },
    ],
  });
  rival = await seedAgency(t.deps.db, {
    accountName: 'Rival Agency',
    owner: { email: 'owner@rival-brand.test', name: 'Rival Owner' },
    subaccounts: ['Rival HQ'],
  });
  owner = await t.cookieFor(acme.ownerId);
  rivalOwner = await t.cookieFor(rival.ownerId);
  await t.deps.db.insert(agencyDomains).values([
    { accountId: acme.accountId, hostname: 'portal.acme.test', token: 'tok-acme', method: 'http', status: 'verified' },
    {
      accountId: rival.accountId,
      hostname: 'portal.rival.test',
      token: 'tok-rival',
      method: 'http',
      status: 'pending',
    },
  ]);
});
afterAll(() => t.close());

const branding = (
  cookie: string,
  method: 'GET' | 'PATCH',
  accountId: string,
  payload?: object,
  subaccountId?: string,
) =>
  t.app.inject({
    method,
    url: `/api/accounts/${accountId}/branding`,
    payload,
    headers: { cookie, ...(subaccountId ? { 'x-subaccount-id': subaccountId } : {}) },
  });

describe('the agency edits its branding', () => {
  it('starts from its name with a slug made from it, and white-label from the plan', async () => {
    const response = await branding(owner, 'GET', acme.accountId);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ brandName: 'Acme Automation', logoUrl: null, primaryColor: null, whiteLabel: true });
    expect(body.slug).toMatch(/^acme-automation-[a-z0-9]{6}$/);
    const rivalView = (await branding(rivalOwner, 'GET', rival.accountId)).json();
    expect(rivalView.whiteLabel).toBe(false);
  });

  it('saves slug, name, logo, colour and sender name', async () => {
    const response = await branding(owner, 'PATCH', acme.accountId, {
      slug: 'acme',
      brandName: 'Acme AI',
      logoUrl: 'https://cdn.acme.test/logo.png',
      primaryColor: '#AA3366',
      emailSenderName: 'Acme Support',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      slug: 'acme',
      brandName: 'Acme AI',
      logoUrl: 'https://cdn.acme.test/logo.png',
      primaryColor: '#aa3366',
      emailSenderName: 'Acme Support',
    });
  });

  it.each([
    [{ slug: 'ab' }, 'at least 3'],
    [{ slug: 'a'.repeat(41) }, 'at most 40'],
    [{ slug: 'Acme-Two' }, 'lowercase'],
    [{ slug: '-acme' }, 'lowercase'],
    [{ slug: 'acme_two' }, 'lowercase'],
    [{ slug: 'admin' }, 'reserved'],
    [{ slug: 'api' }, 'reserved'],
    [{ logoUrl: 'http://cdn.acme.test/logo.png' }, 'https://'],
    [{ logoUrl: 'javascript:alert(1)' }, 'https://'],
    [{ primaryColor: 'red' }, 'hex'],
    [{ primaryColor: '#fff' }, 'hex'],
    [{ brandName: '' }, 'required'],
    [{ emailSenderName: 'Acme\r\nBcc: x@y.z' }, 'line breaks'],
    [{}, 'Nothing to update'],
    [{ ownerUserId: 'usr_x' }, ''],
  ])('refuses %j with a 422 that says why', async (payload, words) => {
    const response = await branding(owner, 'PATCH', acme.accountId, payload);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.message).toContain(words);
  });

  it('answers 409 with a clear message when another agency has the slug', async () => {
    const response = await branding(rivalOwner, 'PATCH', rival.accountId, { slug: 'acme' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('This slug is already taken by another agency; choose another');
    expect(response.json().error.field).toBe('slug');
    // Its own slug again is no conflict.
    expect((await branding(owner, 'PATCH', acme.accountId, { slug: 'acme' })).statusCode).toBe(200);
  });

  it("is the manager's: a member is refused, a client and another agency find nothing", async () => {
    const bakery = acme.subaccountIds[1] as string;
    const member = await t.cookieFor(acme.userIds['member@acme-brand.test'] as string);
    const client = await t.cookieFor(acme.userIds['client@acme-brand.test'] as string);
    expect((await branding(member, 'GET', acme.accountId, undefined, bakery)).statusCode).toBe(403);
    expect((await branding(member, 'PATCH', acme.accountId, { brandName: 'X' }, bakery)).statusCode).toBe(403);
    expect((await branding(client, 'GET', acme.accountId, undefined, bakery)).statusCode).toBe(404);
    expect((await branding(client, 'PATCH', acme.accountId, { brandName: 'X' }, bakery)).statusCode).toBe(404);
    const theirs = await branding(rivalOwner, 'PATCH', acme.accountId, { brandName: 'Hijacked' });
    expect(theirs.statusCode).toBe(404);
    expect((await branding(owner, 'GET', acme.accountId)).json().brandName).toBe('Acme AI');
  });
});

describe('a sign-in page reads the branding', () => {
  const publicBranding = (query: string, host?: string) =>
    t.app.inject({ url: `/api/portal/branding${query}`, headers: host ? { host } : {} });

  it('by slug, with nothing but what the page shows', async () => {
    const response = await publicBranding('?slug=acme');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      slug: 'acme',
      name: 'Acme AI',
      logoUrl: 'https://cdn.acme.test/logo.png',
      primaryColor: '#aa3366',
      whiteLabel: true,
    });
    expect(response.body).not.toContain(acme.accountId);
    expect(response.body).not.toContain(acme.ownerId);
  });

  it('answers 404 to an unknown or malformed slug', async () => {
    for (const slug of ['nobody-here', 'x', '../acme', 'ACME']) {
      expect((await publicBranding(`?slug=${encodeURIComponent(slug)}`)).statusCode).toBe(404);
    }
  });

  it('shows "Powered by" (whiteLabel false) for a plan without white-label branding', async () => {
    const slug = (await branding(rivalOwner, 'GET', rival.accountId)).json().slug;
    expect((await publicBranding(`?slug=${slug}`)).json()).toMatchObject({ name: 'Rival Agency', whiteLabel: false });
  });

  it("by the host only when it is the agency's verified domain", async () => {
    const onDomain = await publicBranding('', 'portal.acme.test');
    expect(onDomain.statusCode, onDomain.body).toBe(200);
    expect(onDomain.json()).toMatchObject({ slug: 'acme', name: 'Acme AI' });
    expect((await publicBranding('', 'PORTAL.ACME.TEST')).json().name).toBe('Acme AI');
    expect((await publicBranding('?slug=acme', 'portal.acme.test')).statusCode).toBe(200);
    // Another agency's page is not served on this agency's domain.
    const rivalSlug = (await branding(rivalOwner, 'GET', rival.accountId)).json().slug;
    expect((await publicBranding(`?slug=${rivalSlug}`, 'portal.acme.test')).statusCode).toBe(404);
    expect((await publicBranding(`?slug=${rivalSlug}`, 'portal.rival.test')).statusCode).toBe(200);
  });

  it('gives a forged or unverified Host no agency', async () => {
    for (const host of ['portal.rival.test', 'evil.example', 'app.switchboard.test', 'localhost:3000']) {
      const response = await publicBranding('', host);
      expect([host, response.statusCode]).toEqual([host, 404]);
      expect(response.body).not.toContain('Acme');
    }
    // A forwarded host is not trusted without TRUST_PROXY.
    const forwarded = await t.app.inject({
      url: '/api/portal/branding',
      headers: { host: 'evil.example', 'x-forwarded-host': 'portal.acme.test' },
    });
    expect(forwarded.statusCode).toBe(404);
  });

  it("puts only the verified domain into a sign-in link; a forged Host gets PUBLIC_URL's", async () => {
    const email = 'client@acme-brand.test';
    const linkFor = async (host: string) => {
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        headers: { host },
        payload: { email },
      });
      const [mail] = await t.deps.db
        .select()
        .from(outbox)
        .where(eq(outbox.to, email))
        .orderBy(desc(outbox.createdAt))
        .limit(1);
      return String(mail?.link);
    };
    expect(await linkFor('portal.acme.test')).toMatch(/^https:\/\/portal\.acme\.test\/auth\/confirm\?/);
    expect(await linkFor('portal.rival.test')).toMatch(/^https:\/\/app\.switchboard\.test\/auth\/confirm\?/);
  });
});
