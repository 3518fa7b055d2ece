import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createTenantObjects, fillPath } from '../testing/tenant-objects';
import { arbitraryFor } from '../testing/zod-arbitrary';
import type { GuardedRoute } from './guard';

/**
 * Drives every route of the API, as the agency's owner with its own real ids, with values its zod
 * schemas accept, biased to the edges (longest names, largest numbers, fullest lists): whatever
 * the route answers, it is never a 5xx, and the lists that show what was written still answer.
 */
const RUNS_PER_ROUTE = 4;
let t: TestApp;
let owner: string;
let subaccountId: string;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({
    SIGNIN_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: process.env.EDGE_DEBUG ? 'error' : 'silent',
  });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Edge Agency',
    owner: { email: 'owner@edge.test', name: 'Owner' },
    subaccounts: ['Edge Client'],
    plan: 'sb_growth_month_3000',
  });
  owner = agency.ownerId;
  subaccountId = agency.subaccountIds[0] as string;
  ids = { ...(await createTenantObjects(t, await t.cookieFor(owner), subaccountId)), userId: owner };
}, 60_000);
afterAll(() => t.close());

/** Streams that stay open are not driven here (their own tests cover them). */
const isStream = (route: GuardedRoute) => route.url.endsWith('/events');

const sampleOf = (schema: unknown, seed: number): unknown =>
  schema ? fc.sample(arbitraryFor(schema as z.ZodType), { numRuns: 1, seed })[0] : undefined;

const asQuery = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((value as Record<string, unknown>) ?? {})
      .filter(([, field]) => field !== undefined && field !== null)
      .map(([key, field]) => [key, typeof field === 'object' ? JSON.stringify(field) : String(field)]),
  );

const drive = async (routes: GuardedRoute[]) => {
  const failures: string[] = [];
  for (const route of routes) {
    const started = Date.now();
    for (let run = 0; run < RUNS_PER_ROUTE; run += 1) {
      const seed = run * 7919 + route.url.length;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : sampleOf(route.schema?.body, seed);
      const query = asQuery(sampleOf(route.schema?.querystring, seed));
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: fillPath(route.url, ids),
        query,
        headers: { cookie: await t.cookieFor(owner), 'x-subaccount-id': subaccountId },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      if (response.statusCode >= 500) {
        failures.push(
          `${route.method} ${route.url} ${JSON.stringify({ query, body }).slice(0, 400)} -> ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    }
    if (process.env.EDGE_DEBUG) console.log(`${Date.now() - started}ms ${route.method} ${route.url}`);
  }
  return failures;
};

describe('every route with valid values at the edges of its schema', () => {
  it('never answers 5xx, writes first and deletes last', async () => {
    const routes = t.app.guardedRoutes.filter((route) => !isStream(route));
    expect(routes.length).toBeGreaterThan(80);
    const writes = routes.filter((route) => route.method !== 'DELETE');
    const deletes = routes.filter((route) => route.method === 'DELETE');
    const failures = [...(await drive(writes)), ...(await drive(deletes))];
    expect(failures, failures.join('\n')).toEqual([]);
  }, 420_000);

  it('lists still answer after the edge values were stored', async () => {
    const cookie = await t.cookieFor(owner);
    for (const url of [
      '/api/accounts',
      '/api/agents',
      `/api/subaccounts/${subaccountId}/connections`,
      '/api/demos',
      '/api/evaluation/runs',
      '/api/templates',
      `/api/subaccounts/${subaccountId}/members`,
    ]) {
      const response = await t.app.inject({ url, headers: { cookie, 'x-subaccount-id': subaccountId } });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
    }
  });
});
