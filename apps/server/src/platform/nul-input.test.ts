import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SESSION_COOKIE } from '../features/auth/session';
import { seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createTenantObjects, fillPath } from '../testing/tenant-objects';
import { arbitraryFor } from '../testing/zod-arbitrary';
import type { GuardedRoute } from './guard';
import { nulPathIn } from './nul-input';

/**
 * U+0000 anywhere in a request (PostgreSQL refuses it in text): every route, signed in or not,
 * with a NUL in a path parameter, in each query field and in each body string, answers a 4xx
 * envelope, never a 5xx.
 */
const NUL = '\u0000';
let t: TestApp;
let cookie: string;
let subaccountId: string;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ SIGNIN_RATE_LIMIT_PER_MINUTE: '100000' });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Nul Agency',
    owner: { email: 'owner@nul.test', name: 'Owner' },
    subaccounts: ['Nul Client'],
    plan: 'sb_growth_month_3000',
  });
  subaccountId = agency.subaccountIds[0] as string;
  cookie = await t.cookieFor(agency.ownerId);
  ids = { ...(await createTenantObjects(t, cookie, subaccountId)), userId: agency.ownerId };
}, 60_000);
afterAll(() => t.close());

/** Every string of a value with a NUL put into its middle. */
const withNul = (value: unknown): unknown => {
  if (typeof value === 'string') return `${value.slice(0, 1)}${NUL}${value.slice(1)}`;
  if (Array.isArray(value)) return value.map(withNul);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withNul(field)]));
  }
  return value;
};

const sampleOf = (schema: unknown): unknown =>
  schema ? fc.sample(arbitraryFor(schema as z.ZodType), { numRuns: 1, seed: 42 })[0] : undefined;

const asQuery = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((value as Record<string, unknown>) ?? {})
      .filter(([, field]) => typeof field === 'string')
      .map(([key, field]) => [key, String(field)]),
  );

const isStream = (route: GuardedRoute) => route.url.endsWith('/events');

const expectRefused = (what: string, response: { statusCode: number; body: string }, failures: string[]) => {
  if (response.statusCode >= 500 || response.statusCode < 400) {
    failures.push(`${what} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
  }
};

describe('U+0000 in a request', () => {
  it('is refused on every route in the path, the query and the body, signed in or not', async () => {
    const routes = t.app.guardedRoutes.filter((route) => !isStream(route));
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const route of routes) {
      const method = route.method as 'GET';
      const url = fillPath(route.url, ids);
      for (const signedIn of [true, false]) {
        const headers = { 'x-subaccount-id': subaccountId, ...(signedIn ? { cookie } : {}) };
        if (route.url.includes(':')) {
          const broken = fillPath(route.url, Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, `${v}%00`])));
          expectRefused(`${method} ${broken}`, await t.app.inject({ method, url: broken, headers }), failures);
        }
        const query = asQuery(sampleOf(route.schema?.querystring));
        if (Object.keys(query).length > 0) {
          const nulQuery = withNul(query) as Record<string, string>;
          const response = await t.app.inject({ method, url, query: nulQuery, headers });
          expectRefused(`${method} ${url} query ${JSON.stringify(nulQuery)}`, response, failures);
        }
        const body = method === 'GET' || method === 'DELETE' ? undefined : sampleOf(route.schema?.body);
        if (body !== undefined && nulPathIn(withNul(body), 'body')) {
          const payload = withNul(body) as object;
          const response = await t.app.inject({ method, url, payload, headers });
          expectRefused(`${method} ${url} body`, response, failures);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 240_000);

  it('names the field in a 422 on the public widget chat', async () => {
    for (const [field, payload] of [
      ['body.message', { message: `Hi${NUL}there` }],
      ['body.contactIdentifier', { message: 'Hi', contactIdentifier: `a${NUL}@b.co` }],
      ['body.history.0.content', { message: 'Hi', history: [{ role: 'user', content: NUL }] }],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: `/api/widget/${ids.widgetId}/chat`, payload });
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
  });

  it('is refused in the unguarded public pages and a cookie, before any lookup', async () => {
    for (const url of [
      '/api/media/%00',
      '/demo-frame/%00',
      '/api/evaluation/shared/%00..%2f',
      `/widget/${ids.widgetId}%00`,
      '/api/auth/signin?callbackUrl=%00',
    ]) {
      const response = await t.app.inject({ url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 422 });
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
    const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie: `${SESSION_COOKIE}=%00` } });
    expect(session.statusCode).toBe(422);
    expect(session.json().error.field).toBe(`cookie.${SESSION_COOKIE}`);
  });

  it('nulPathIn finds NUL in keys and deep values, and passes other text', () => {
    expect(nulPathIn({ a: [{ b: `x${NUL}` }] }, 'body')).toBe('body.a.0.b');
    expect(nulPathIn({ [`k${NUL}`]: 1 }, 'body')).toBe('body');
    expect(nulPathIn({ a: 'plain \u0001 text', n: 1, b: Buffer.from([0]) }, 'body')).toBeNull();
  });
});
