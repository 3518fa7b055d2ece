import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { debitUsages } from '../features/billing/ledger';
import { providerKeys } from '../features/providers/schema';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createTenantObjects, fillPath } from '../testing/tenant-objects';
import { arbitraryFor } from '../testing/zod-arbitrary';
import { encryptSecret } from './crypto';
import type { GuardedRoute } from './guard';

/**
 * Tries every guarded route of the API with another agency's real ids (its sub-account, agent,
 * connection, demo, API key, job, thread) and a body its schema accepts, so the tenant guard is what
 * answers: 404 (or 403), never the data and never a 422 that would describe the route's schema to
 * a caller without access. Signed out, every protected route answers 401 whatever its body. Public
 * routes (a shared demo, a widget) are open by design and are checked to reveal no agency data.
 */
let t: TestApp;
let ours: SeededAgency;
let theirs: SeededAgency;
let cookie: string;
let theirIds: Record<string, string>;
const routes: GuardedRoute[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ours = await seedAgency(t.deps.db, {
    accountName: 'Our Agency',
    owner: { email: 'owner@ours.test', name: 'Owner' },
    subaccounts: ['Our Client'],
  });
  theirs = await seedAgency(t.deps.db, {
    ...DEMO_AGENCY,
    owner: { email: 'owner@theirs.test', name: 'Them' },
    users: [],
  });
  cookie = await t.cookieFor(ours.ownerId);
  routes.push(...t.app.guardedRoutes);
  const them = await t.cookieFor(theirs.ownerId);
  theirIds = {
    ...(await createTenantObjects(t, them, theirs.subaccountIds[0] as string)),
    userId: theirs.ownerId,
  };
});
afterAll(() => t.close());

/** A body the route's schema accepts (so only the guard can refuse it), or none. */
const validBody = (route: GuardedRoute, seed: number) => {
  if (route.method === 'GET' || route.method === 'DELETE' || !route.schema?.body) return undefined;
  const [body] = fc.sample(arbitraryFor(route.schema.body as z.ZodType), { numRuns: 1, seed });
  return body as object;
};

const protectedRoutes = () => routes.filter((route) => route.access.kind !== 'public');

describe('cross-tenant access', () => {
  it('finds the routes to try', () => {
    expect(routes.some((route) => route.url.includes(':subaccountId'))).toBe(true);
    expect(protectedRoutes().filter((route) => route.schema?.body).length).toBeGreaterThan(20);
  });

  // One request per route: the time grows with the API, so these two have a longer limit.
  it("answers every route with another tenant's ids and a valid body without its data", {
    timeout: 120_000,
  }, async () => {
    const theirSub = theirs.subaccountIds[0] as string;
    for (const [index, route] of protectedRoutes()
      .filter((r) => r.url.includes(':') || r.access.kind === 'subaccount')
      .entries()) {
      const payload = validBody(route, index);
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url, theirIds),
        headers: { cookie, 'x-subaccount-id': theirSub },
        payload,
      });
      const where = `${route.method} ${route.url} with ${JSON.stringify(payload)?.slice(0, 200)}`;
      expect([404, 403], `${where} answered ${response.statusCode} ${response.body}`).toContain(response.statusCode);
      expect(response.body).not.toContain(theirs.ownerId);
      expect(response.body).not.toContain('Sunrise Solar');
      expect(response.body).not.toContain('Their Secret Agent');
      if (payload) {
        // An invalid body does not make the route describe its schema to a caller without access.
        const invalid = await t.app.inject({
          method: route.method as 'POST',
          url: fillPath(route.url, theirIds),
          headers: { cookie, 'x-subaccount-id': theirSub },
          payload: { unexpected: ['x'] },
        });
        expect([404, 403], `${route.method} ${route.url} answered ${invalid.body}`).toContain(invalid.statusCode);
      }
    }
  });

  it('answers 401 to a signed-out caller on every protected route, whatever the body', {
    timeout: 120_000,
  }, async () => {
    for (const [index, route] of protectedRoutes().entries()) {
      const bodies = [validBody(route, index), '{"broken": ', 'x'.repeat(50)];
      for (const payload of route.method === 'GET' || route.method === 'DELETE' ? [undefined] : bodies) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, theirIds),
          headers: typeof payload === 'string' ? { 'content-type': 'application/json' } : {},
          payload,
        });
        expect(response.statusCode, `${route.method} ${route.url} answered ${response.body}`).toBe(401);
        expect(response.json().error.code).toBe('UNAUTHORIZED');
      }
    }
  });

  it('public routes reveal no agency data', async () => {
    for (const route of routes.filter((r) => r.url.includes(':') && r.access.kind === 'public' && r.method === 'GET')) {
      if (route.url.endsWith('/events')) continue;
      const response = await t.app.inject({ url: fillPath(route.url, theirIds) });
      expect(response.statusCode, `${route.url}`).toBeLessThan(500);
      expect(response.body).not.toContain(theirs.ownerId);
      expect(response.body).not.toContain('owner@theirs.test');
      expect(response.body).not.toContain(theirs.accountId);
    }
  });

  it('a workspace call with another tenant sub-account header is refused', async () => {
    const theirSub = theirs.subaccountIds[0] as string;
    for (const route of routes.filter((r) => !r.url.includes(':') && r.method === 'GET')) {
      const response = await t.app.inject({ url: route.url, headers: { cookie, 'x-subaccount-id': theirSub } });
      expect(response.body).not.toContain('Sunrise Solar');
      expect(response.body).not.toContain(theirs.ownerId);
    }
  });
});

/**
 * A client's login: a member (an admin, a portal client) of one sub-account of an agency with several clients,
 * over every route, in its own sub-account with the other client's ids in the path. The agency's
 * money answers 403 or 404; usage and allowances show its own sub-account only; no answer carries
 * another client's ids, names or figures, nor the agency's invoice.
 */
describe('a client scoped to one sub-account of a multi-client agency', () => {
  let multi: SeededAgency;
  let alpha: string;
  let betaIds: Record<string, string>;
  let marks: string[];

  /** Routes about the agency's money: its manager's only. */
  const AGENCY_MONEY = [
    /^\/(api\/)?stripe\//,
    /^\/api\/billing\/(overview|low-balance-alerts|auto-recharge|subaccount-selection|sandbox\/)/,
    /^\/api\/openrouter\/credits\//,
  ];
  /** Reads everyone in the account makes, filtered to the caller's sub-accounts. */
  const CLIENT_READS = ['/api/openrouter/usage', '/api/usage/breakdown', '/api/billing/allowances'];
  const isMoney = (route: GuardedRoute) =>
    AGENCY_MONEY.some((pattern) => pattern.test(route.url)) ||
    (route.method === 'PUT' && route.url === '/api/billing/allowances/:subaccountId');

  beforeAll(async () => {
    multi = await seedAgency(t.deps.db, {
      accountName: 'Multi Client Agency',
      owner: { email: 'owner@multi.test', name: 'Multi Owner' },
      subaccounts: ['Multi HQ', 'Client Alpha', 'Client Beta Co'],
      users: [
        { email: 'member@alpha.test', name: 'Alpha Member', role: 'member', subaccounts: ['Client Alpha'] },
        { email: 'admin@alpha.test', name: 'Alpha Admin', role: 'admin', subaccounts: ['Client Alpha'] },
        { email: 'client@alpha.test', name: 'Alpha Client', role: 'client', subaccounts: ['Client Alpha'] },
      ],
    });
    const [hq, alphaId, beta] = multi.subaccountIds as [string, string, string];
    alpha = alphaId;
    const owner = await t.cookieFor(multi.ownerId);
    const asOwner = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const response = await t.app.inject({ method, url, payload, headers: { cookie: owner, 'x-subaccount-id': hq } });
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
      return response.json();
    };
    const checkout = await asOwner('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
    const checkoutId = String(checkout.url).split('/billing/sandbox/')[1];
    await asOwner('POST', `/api/billing/sandbox/checkouts/${checkoutId}/complete`, { outcome: 'pay' });
    const invoiceId = (await asOwner('GET', '/api/billing/overview')).invoices[0].id as string;
    await asOwner('PUT', `/api/billing/allowances/${beta}`, { monthlyCredits: 98765.4 });
    betaIds = await createTenantObjects(t, owner, beta);
    const call = (subaccountId: string, credits: number, key: string, extra: object = {}) => ({
      accountId: multi.accountId,
      subaccountId,
      model: 'offline-mini',
      inputTokens: 1,
      outputTokens: 1,
      credits,
      idempotencyKey: key,
      source: 'test',
      ...extra,
    });
    await debitUsages(t.deps, [
      call(beta, 6.54321, 'beta-usage', { model: 'beta-model-x', channel: 'sms' }),
      call(hq, 2.34567, 'hq-usage'),
      call(alpha, 1.5, 'alpha-usage'),
    ]);
    marks = [
      // Real ids only (a missing object's placeholder such as 's1' could match random text).
      ...Object.values(betaIds).filter((id) => /^[a-z]+_\w{8,}$/.test(id)),
      hq,
      'Multi HQ',
      'Client Beta Co',
      'Their Secret Agent',
      'beta-model-x',
      '6.54321',
      '2.34567',
      '98765.4',
      invoiceId,
      checkoutId as string,
    ];
  });

  it("lists only the client's own allowance and usage", async () => {
    const cookie = await t.cookieFor(multi.userIds['member@alpha.test'] as string);
    const get = async (url: string) =>
      (await t.app.inject({ url, headers: { cookie, 'x-subaccount-id': alpha } })).json();
    const allowances = await get('/api/billing/allowances');
    expect(allowances.subaccounts.map((row: { subaccountId: string }) => row.subaccountId)).toEqual([alpha]);
    const bySubaccount = await get('/api/usage/breakdown?groupBy=subaccount');
    expect(bySubaccount.rows.map((row: { key: string }) => row.key)).toEqual([alpha]);
    const usage = await get('/api/openrouter/usage');
    expect(usage.balance).toBeNull();
    expect(usage.usageLogs.map((log: { cost: number }) => log.cost)).toEqual([1.5]);
  });

  it("keeps the agency's AI provider keys (it pays for their calls) from an admin of one client", async () => {
    const owner = await t.cookieFor(multi.ownerId);
    const admin = await t.cookieFor(multi.userIds['admin@alpha.test'] as string);
    const call = (cookie: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { cookie, 'x-subaccount-id': alpha } });
    // Stored as a save would store it (a save first asks the provider for its models).
    await t.deps.db.insert(providerKeys).values({
      id: 'pvk_agency',
      accountId: multi.accountId,
      provider: 'openrouter',
      encryptedKey: encryptSecret(t.deps.env, 'sk-or-agency-secret-0001'),
      keyTail: '0001',
      models: ['agency-model'],
    });
    for (const [method, url, payload] of [
      ['GET', `/api/connect/${alpha}/providers`],
      ['PUT', `/api/connect/${alpha}/providers/openrouter`, { apiKey: 'sk-or-client-replaced-0002' }],
      ['DELETE', `/api/connect/${alpha}/providers/openrouter`],
    ] as const) {
      const answer = await call(admin, method, url, payload);
      expect({ method, status: answer.statusCode }).toEqual({ method, status: 403 });
      expect(answer.body).not.toContain('agency-model');
    }
    const kept = await call(owner, 'GET', `/api/connect/${alpha}/providers`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().providers.find((p: { provider: string }) => p.provider === 'openrouter')).toMatchObject({
      configured: true,
      keyTail: '0001',
    });
  });

  it.each(['member@alpha.test', 'admin@alpha.test', 'client@alpha.test'])(
    'answers every route to %s without another client or the agency money',
    { timeout: 180_000 },
    async (email) => {
      const cookie = await t.cookieFor(multi.userIds[email] as string);
      const tried = protectedRoutes().filter(
        (route) => route.url.includes(':') || route.access.kind === 'subaccount' || route.method === 'GET',
      );
      for (const [index, route] of tried.entries()) {
        const payload = validBody(route, index);
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: fillPath(route.url, betaIds),
          headers: { cookie, 'x-subaccount-id': alpha },
          payload,
        });
        const where = `${email}: ${route.method} ${route.url} answered ${response.statusCode}`;
        for (const mark of marks) expect(response.body, `${where} with ${mark}`).not.toContain(mark);
        const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
        if (isMoney(route) || (params.length > 0 && params.every((name) => name in betaIds))) {
          expect([403, 404], `${where}: ${response.body}`).toContain(response.statusCode);
        } else if (CLIENT_READS.includes(route.url)) {
          expect(response.statusCode, `${where}: ${response.body}`).toBe(200);
        } else if (/^\/(api\/)?(billing|stripe|usage)\/|^\/api\/openrouter\/(usage|credits)/.test(route.url)) {
          throw new Error(`${route.method} ${route.url}: say whether it is the agency's money or a client's read`);
        }
      }
    },
  );
});
