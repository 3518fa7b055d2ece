import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../features/tenancy/seed';
import { startTestApp, type TestApp } from '../testing/harness';

/**
 * Tries every guarded route of the API with another agency's real ids (its sub-account, agent,
 * connection, demo, API key, job, thread, template and evaluation run): each answers 404 (or 422
 * before any lookup), never its data. Public routes (a shared demo, a widget) are open by design and
 * are checked to reveal no agency data.
 */
let t: TestApp;
let ours: SeededAgency;
let theirs: SeededAgency;
let cookie: string;
const routes: { method: string; url: string; access: { kind: string } }[] = [];
/** Ids of the other agency's things, by route parameter name. */
const theirIds: Record<string, string> = {};

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
  const theirSub = theirs.subaccountIds[0] as string;
  const as = async (method: 'POST' | 'GET', url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      payload,
      headers: { cookie: them, 'x-subaccount-id': theirSub },
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const agent = await as('POST', '/api/agents', { name: 'Their Secret Agent' });
  const connection = await as('POST', '/api/connections', {
    subaccountId: theirSub,
    buildId: agent.id,
    type: 'website-widget',
  });
  const demo = await as('POST', '/api/demos', { name: 'Their demo', type: 'standard', buildId: agent.id });
  const key = await as('POST', '/api/api-keys', { name: 'Their key' });
  const job = await as('POST', '/api/agent/build', { idea: 'A helpful plumber assistant' });
  const threads = await as('GET', `/api/agents/${agent.id}/threads`);
  Object.assign(theirIds, {
    subaccountId: theirSub,
    connectId: theirSub,
    agentId: agent.id,
    buildId: agent.id,
    connectionId: connection.connectionId,
    widgetId: connection.widgetId,
    demoId: demo.demoId ?? demo.id,
    keyId: key.id ?? key.key?.id,
    jobId: job.jobId,
    threadId: threads.threads?.[0]?.id ?? 'thr_none',
    userId: theirs.ownerId,
  });
});
afterAll(() => t.close());

const fill = (url: string) =>
  url.replace(/:([A-Za-z]+)/g, (_all, name: string) => theirIds[name] ?? `${name}_of_other_tenant`);

describe('cross-tenant access', () => {
  it('finds the routes to try', () => {
    expect(routes.some((route) => route.url.includes(':subaccountId'))).toBe(true);
  });

  it("answers every route with another tenant's ids without its data", async () => {
    const theirSub = theirs.subaccountIds[0] as string;
    for (const route of routes.filter((r) => r.url.includes(':') && r.access.kind !== 'public')) {
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: fill(route.url),
        headers: { cookie, 'x-subaccount-id': theirSub },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect([404, 422, 400], `${route.method} ${route.url} answered ${response.statusCode}`).toContain(
        response.statusCode,
      );
      expect(response.body).not.toContain(theirs.ownerId);
      expect(response.body).not.toContain('Sunrise Solar');
      expect(response.body).not.toContain('Their Secret Agent');
    }
  });

  it('public routes reveal no agency data', async () => {
    for (const route of routes.filter((r) => r.url.includes(':') && r.access.kind === 'public' && r.method === 'GET')) {
      const response = await t.app.inject({ url: fill(route.url) });
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
