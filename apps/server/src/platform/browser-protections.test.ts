import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../features/auth/session';
import { frameAncestorsOf } from '../features/widget/domains';
import { DEMO_AGENCY, type SeededAgency, seedAgency } from '../seed';
import { startTestApp, type TestApp } from '../testing/harness';
import { createTenantObjects } from '../testing/tenant-objects';
import { inlineScriptHashes } from './browser-protections';
import { loadEnv } from './env';

let t: TestApp;
let agency: SeededAgency;
let cookie: string;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  cookie = await t.cookieFor(agency.ownerId);
  ids = await createTenantObjects(t, cookie, agency.subaccountIds[0] as string);
});
afterAll(() => t.close());

const createAgent = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/agents',
    headers: { cookie, 'x-subaccount-id': agency.subaccountIds[0] as string, ...headers },
    payload: { name: 'Made elsewhere?' },
  });

describe('security headers', () => {
  it('sends a CSP, nosniff and a referrer policy on pages, API answers and the API reference', async () => {
    for (const url of ['/api/health', '/api/docs', '/api/docs/static/index.html', '/', '/agents']) {
      const response = await t.app.inject({ url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(String(response.headers['content-security-policy']), url).toContain("frame-ancestors 'self'");
      expect(String(response.headers['content-security-policy']), url).toContain("script-src 'self'");
    }
  });

  it("sends the widget's iframe page with frame-ancestors from its allowed domains and hashes of its inline script", async () => {
    const open = await t.app.inject({ url: `/widget/${ids.widgetId}` });
    expect(open.headers['x-frame-options']).toBeUndefined();
    expect(open.headers['content-security-policy']).toContain('frame-ancestors *');
    for (const hash of inlineScriptHashes(open.body)) expect(open.headers['content-security-policy']).toContain(hash);

    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/connections/${ids.connectionId}`,
      headers: { cookie },
      payload: { settings: { allowedDomains: ['shop.example.com', '*.clinic.example'] } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const deployed = await t.app.inject({
      method: 'POST',
      url: `/api/connections/${ids.connectionId}/deploy`,
      headers: { cookie },
    });
    expect(deployed.statusCode, deployed.body).toBe(200);
    const closed = await t.app.inject({ url: `/widget/${ids.widgetId}` });
    const policy = String(closed.headers['content-security-policy']);
    expect(policy).toContain(
      "frame-ancestors 'self' https://shop.example.com http://shop.example.com https://www.shop.example.com",
    );
    expect(policy).toContain('https://*.clinic.example');
    // The loader itself draws nothing on a site that is not allowed.
    const refused = await t.app.inject({
      url: `/widget/${ids.widgetId}/widget.js`,
      headers: { referer: 'https://evil.example/page' },
    });
    expect(refused.body).toContain('This website is not allowed to use this chat widget');
    expect(refused.body.length).toBeLessThan(200);
    const allowed = await t.app.inject({
      url: `/widget/${ids.widgetId}/widget.js`,
      headers: { referer: 'https://shop.example.com/prices' },
    });
    expect(allowed.body.length).toBeGreaterThan(500);
    expect(policy.split(';').filter((part) => part.trim().startsWith('script-src'))).toHaveLength(1);
  });

  it('lets other sites load the widget loader', async () => {
    const loader = await t.app.inject({ url: `/widget/${ids.widgetId}/widget.js` });
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('hashes exactly the inline scripts of a page', () => {
    const body = 'window.__SBW__={"a":"<\\u002fscript>"}';
    const hash = createHash('sha256').update(body).digest('base64');
    expect(inlineScriptHashes(`<script>${body}</script><script src="/x.js"></script>`)).toEqual([`'sha256-${hash}'`]);
    expect(frameAncestorsOf([])).toEqual(['*']);
    // Nothing in a stored entry can end the directive and add another.
    expect(frameAncestorsOf(['evil.example; script-src *'])).toEqual(["'self'"]);
  });
});

describe('cookie requests from other origins', () => {
  it('refuses a state change with the session cookie from another site or another port of this host', async () => {
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'http://localhost:3001', 'sec-fetch-site': 'same-site' },
      { origin: 'http://localhost:3001' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attempts) {
      const response = await createAgent(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
    }
  });

  it('accepts the app itself, and callers that are not browsers', async () => {
    expect((await createAgent({ origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      201,
    );
    expect((await createAgent({})).statusCode).toBe(201);
  });

  it('refuses text/plain and form bodies, which a foreign page can send without asking', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/agents/${ids.agentId}/duplicate`,
        headers: { cookie, 'content-type': type, 'x-subaccount-id': agency.subaccountIds[0] as string },
        payload: '',
      });
      expect(response.statusCode, type).toBe(415);
    }
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, 'content-type': 'text/plain', origin: 'https://evil.example' },
      payload: 'x',
    });
    expect(signOut.statusCode).toBe(415);
  });

  it('leaves the public cross-site endpoints to other sites', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/widget/${ids.widgetId}/chat`,
      headers: { origin: 'https://shop.example.com', cookie, 'sec-fetch-site': 'cross-site' },
      payload: { message: 'Hi', contactIdentifier: 'preview_cross_site' },
    });
    expect(response.statusCode).not.toBe(403);
  });
});

describe('TRUST_PROXY', () => {
  it('ignores forged forwarding headers by default', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/direct-login',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.1' },
      payload: { email: 'someone@example.com' },
    });
    expect(response.statusCode).toBe(403);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/auth/confirm',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { token: 'x'.repeat(20) },
    });
    expect(session.headers['set-cookie']).toBeUndefined();
  });

  it('takes https and the client address from a trusted load balancer, and marks the session cookie Secure', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: '127.0.0.1', DIRECT_LOGIN_ALLOWLIST: 'boss@proxy.test' });
    try {
      await seedAgency(proxied.deps.db, {
        accountName: 'Proxy',
        owner: { email: 'boss@proxy.test', name: 'Boss' },
        subaccounts: ['P'],
      });
      const login = await proxied.app.inject({
        method: 'POST',
        url: '/api/direct-login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.9' },
        payload: { email: 'boss@proxy.test' },
      });
      expect(login.statusCode).toBe(200);
      const cookieHeader = String(login.headers['set-cookie']);
      expect(cookieHeader).toContain(`${SESSION_COOKIE}=`);
      expect(cookieHeader).toMatch(/;\s*Secure/i);
      const plain = await proxied.app.inject({
        method: 'POST',
        url: '/api/direct-login',
        remoteAddress: '127.0.0.1',
        payload: { email: 'boss@proxy.test' },
      });
      expect(String(plain.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
      const untrusted = await proxied.app.inject({
        method: 'POST',
        url: '/api/direct-login',
        remoteAddress: '203.0.113.50',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { email: 'boss@proxy.test' },
      });
      expect(String(untrusted.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
    } finally {
      await proxied.close();
    }
  });

  it('reads only the entry the load balancer appended, so a client cannot reset per-address limits', async () => {
    for (const setting of ['true', '1', '127.0.0.1']) {
      const proxied = await startTestApp({ TRUST_PROXY: setting, PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE: '20' });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 40; i += 1) {
          const answer = await proxied.app.inject({
            method: 'POST',
            url: '/api/auth/pre-register',
            remoteAddress: '127.0.0.1',
            // The client's own header, then the address the load balancer saw and appended.
            headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
            payload: { email: `visitor${i}@example.com` },
          });
          statuses.push(answer.statusCode);
        }
        expect({ setting, passed: statuses.filter((status) => status === 200).length }).toEqual({
          setting,
          passed: 20,
        });
        expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
      } finally {
        await proxied.close();
      }
    }
  });

  it('is refused as true in production, with a message naming the hop count and addresses', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://switchboard.example.com' };
    expect(() => loadEnv({ ...production, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true would let any client choose its own address.*number of proxies.*addresses/,
    );
    expect(loadEnv({ ...production, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ ...production, TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8']);
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent on https from a trusted proxy, and never on plain http or a forged X-Forwarded-Proto', async () => {
    const plain = await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await startTestApp({ TRUST_PROXY: '1' });
    try {
      const secure = await proxied.app.inject({
        url: '/api/health',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const insecure = await proxied.app.inject({ url: '/api/health', remoteAddress: '127.0.0.1' });
      expect(insecure.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});
