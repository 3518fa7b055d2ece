import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../features/tenancy/seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createTenantObjects, fillPath } from '../testing/tenant-objects';
import { arbitraryFor } from '../testing/zod-arbitrary';
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
