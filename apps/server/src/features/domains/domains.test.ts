import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { domainToASCII } from 'node:url';
import { normaliseHostname } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

/**
 * Names under `agency.test` resolve to 127.0.0.1 (as an agency's domain may resolve inside the
 * network), and TXT records come from `txt`: the checks run through the real outbound policy and
 * a real socket, only the resolver is a stand-in.
 */
const dnsStub = vi.hoisted(() => ({ txt: new Map<string, string[][]>() }));
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const done = typeof options === 'function' ? (options as typeof callback) : callback;
    if (!hostname.endsWith('.agency.test'))
      return (actual.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const all = (options as { all?: boolean } | undefined)?.all;
    return all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4);
  }) as typeof actual.lookup;
  return { ...actual, lookup, default: { ...actual, lookup } };
});
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const resolveTxt = async (name: string) => {
    const found = dnsStub.txt.get(name);
    if (found) return found;
    throw Object.assign(new Error(`queryTxt ENODATA ${name}`), { code: 'ENODATA' });
  };
  return { ...actual, resolveTxt, default: { ...actual, resolveTxt } };
});

const PUBLIC_URL = 'https://switchboard.example.com';
const SCALE = 'sb_scale_month_10000';

/**
 * The agencies' web servers: requests for most hosts are answered by the platform itself (the
 * domain points at it); `wrong.` answers another token, `redirect.` sends elsewhere, `slow.` waits.
 */
const startDomainServer = (platform: () => TestApp) => {
  const seen: string[] = [];
  const server = http.createServer(async (req, res) => {
    const host = String(req.headers.host ?? '').split(':')[0] ?? '';
    seen.push(host);
    if (host === 'wrong.agency.test') return res.end('sbv_not_this_one');
    if (host === 'redirect.agency.test') {
      res.writeHead(302, { location: 'http://elsewhere.agency.test/.well-known/switchboard-domain-verification' });
      return res.end();
    }
    if (host === 'slow.agency.test') await new Promise((resolve) => setTimeout(resolve, 300));
    const answer = await platform().app.inject({ method: 'GET', url: req.url ?? '/', headers: { host } });
    res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'text/plain') });
    res.end(answer.body);
  });
  return new Promise<{ port: number; seen: string[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        seen,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    ),
  );
};

const newAgency = async (t: TestApp, name: string, plan?: string) => {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const agency = await seedAgency(t.deps.db, {
    accountName: name,
    owner: { email: `owner@${slug}.test`, name: 'Owner' },
    subaccounts: ['Main', 'Second'],
    users: [{ email: `member@${slug}.test`, name: 'Member', role: 'member' }],
    ...(plan ? { plan } : {}),
  });
  const cookie = await t.cookieFor(agency.ownerId);
  const memberCookie = await t.cookieFor(agency.userIds[`member@${slug}.test`] as string);
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path = '', payload?: object, as = cookie) =>
    t.app.inject({
      method,
      url: `/api/accounts/${agency.accountId}/domain${path}`,
      headers: { cookie: as },
      ...(payload ? { payload } : {}),
    });
  return { ...agency, email: `owner@${slug}.test`, cookie, memberCookie, call };
};

const linkFor = async (t: TestApp, email: string, host: string, forwardedHost = 'evil.example') => {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/magic-link',
    headers: { host, 'x-forwarded-host': forwardedHost },
    payload: { email },
  });
  expect(sent.statusCode).toBe(200);
  const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
  const message = mailbox.json().messages.find((m: { to: string }) => m.to === email);
  return new URL(message.link);
};

describe('a hostname as the agency types it', () => {
  it('is stored lower-case and IDNA-normalised, without scheme or trailing dot', () => {
    expect(normaliseHostname('Portal.Agency.COM')).toBe('portal.agency.com');
    expect(normaliseHostname('https://portal.agency.com/')).toBe('portal.agency.com');
    expect(normaliseHostname('Pörtal.Agency.com.')).toBe(domainToASCII('pörtal.agency.com'));
  });

  it.each([
    '127.0.0.1',
    '2130706433',
    '[::1]',
    'localhost',
    'portal.localhost',
    'portal.agency.com:8443',
    'portal.agency.com/portal',
    'user@portal.agency.com',
    'agency',
    '',
  ])('refuses %j', (raw) => {
    expect(normaliseHostname(raw)).toBeNull();
  });
});

describe('a custom domain per agency', () => {
  let t: TestApp;
  let web: Awaited<ReturnType<typeof startDomainServer>>;
  let alpha: Awaited<ReturnType<typeof newAgency>>;
  let beta: Awaited<ReturnType<typeof newAgency>>;
  let free: Awaited<ReturnType<typeof newAgency>>;

  beforeAll(async () => {
    web = await startDomainServer(() => t);
    t = await startTestApp({
      PUBLIC_URL,
      PRIVATE_URL_ALLOWLIST: '127.0.0.1',
      DOMAIN_VERIFICATION_PORT: String(web.port),
      OPERATOR_EMAILS: 'operator@platform.test',
      SIGNIN_RATE_LIMIT_PER_MINUTE: '100000',
    });
    alpha = await newAgency(t, 'Alpha Agency', SCALE);
    beta = await newAgency(t, 'Beta Agency', SCALE);
    free = await newAgency(t, 'Free Agency');
  });
  afterAll(async () => {
    await t.close();
    await web.close();
  });

  it('refuses addresses, localhost, the platform’s own host and malformed names (422 naming hostname)', async () => {
    for (const hostname of [
      '10.0.0.1',
      'localhost',
      'switchboard.example.com',
      'app.switchboard.example.com',
      'portal.agency.test:8080',
      'portal.agency.test/x',
    ]) {
      const res = await alpha.call('PUT', '', { hostname });
      expect(res.statusCode, hostname).toBe(422);
      expect(res.json().error, hostname).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: expect.stringMatching(/hostname$/),
      });
    }
    expect((await alpha.call('GET')).json()).toEqual({ included: true, domain: null });
  });

  it('answers the plan error without white-label branding, and says so on GET', async () => {
    expect((await free.call('GET')).json()).toEqual({ included: false, domain: null });
    const put = await free.call('PUT', '', { hostname: 'free.agency.test' });
    expect(put.statusCode).toBe(403);
    expect(put.json().error).toMatchObject({ code: 'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED', reason: 'plan_limit' });
    expect((await free.call('POST', '/verify')).statusCode).toBe(403);
  });

  it('is the manager’s: a member gets 403, another agency’s owner 404', async () => {
    const member = await alpha.call('GET', '', undefined, alpha.memberCookie);
    expect(member.statusCode).toBe(403);
    expect((await alpha.call('PUT', '', { hostname: 'x.agency.test' }, alpha.memberCookie)).statusCode).toBe(403);
    expect((await alpha.call('GET', '', undefined, beta.cookie)).statusCode).toBe(404);
    expect((await alpha.call('POST', '/verify', undefined, beta.cookie)).statusCode).toBe(404);
  });

  it('adds a domain, serves its token on that host, and verifies it over HTTP through a real socket', async () => {
    const put = await alpha.call('PUT', '', { hostname: 'Portal.Agency.test' });
    expect(put.statusCode).toBe(200);
    const domain = put.json();
    expect(domain).toMatchObject({
      hostname: 'portal.agency.test',
      method: 'http',
      status: 'pending',
      txtName: '_switchboard.portal.agency.test',
    });
    expect(domain.token).toMatch(/^sbv_/);
    // The same hostname again keeps its token.
    expect((await alpha.call('PUT', '', { hostname: 'portal.agency.test' })).json().token).toBe(domain.token);

    const served = await t.app.inject({
      url: '/.well-known/switchboard-domain-verification',
      headers: { host: 'portal.agency.test' },
    });
    expect(served.body).toBe(domain.token);
    const other = await t.app.inject({
      url: '/.well-known/switchboard-domain-verification',
      headers: { host: 'nobody.agency.test' },
    });
    expect(other.statusCode).toBe(404);

    // Pending: a sign-in link asked for on that host still carries PUBLIC_URL.
    expect((await linkFor(t, alpha.email, 'portal.agency.test')).origin).toBe(PUBLIC_URL);

    const verified = await alpha.call('POST', '/verify');
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ status: 'verified', lastCheckResult: expect.stringContaining('answered') });
    expect(web.seen).toContain('portal.agency.test');
  });

  it('puts the verified host into sign-in and invitation links asked for on it, and nothing else', async () => {
    expect((await linkFor(t, alpha.email, 'portal.agency.test')).origin).toBe('https://portal.agency.test');
    expect((await linkFor(t, alpha.email, 'PORTAL.agency.test:443')).origin).toBe('https://portal.agency.test');
    expect((await linkFor(t, alpha.email, 'evil.example')).origin).toBe(PUBLIC_URL);
    // A forwarded host (not trusted here) cannot borrow the mapping either way.
    expect((await linkFor(t, alpha.email, 'evil.example', 'portal.agency.test')).origin).toBe(PUBLIC_URL);
    expect((await linkFor(t, alpha.email, 'portal.agency.test.evil.example')).origin).toBe(PUBLIC_URL);

    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/subaccounts/${alpha.subaccountIds[0]}/members`,
      headers: { host: 'portal.agency.test', cookie: alpha.cookie },
      payload: { email: 'client@alpha-client.test', role: 'member' },
    });
    expect(invited.statusCode).toBe(200);
    const mailbox = (await t.app.inject({ url: '/api/dev/mailbox' })).json();
    const invite = mailbox.messages.find((m: { to: string }) => m.to === 'client@alpha-client.test');
    expect(new URL(invite.link).origin).toBe('https://portal.agency.test');
  });

  it('sets the session cookie for the custom host only (no Domain attribute)', async () => {
    const link = await linkFor(t, alpha.email, 'portal.agency.test');
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/confirm',
      headers: { host: 'portal.agency.test' },
      payload: { token: link.searchParams.get('token') },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const cookie = String(confirmed.headers['set-cookie']);
    expect(cookie).toMatch(/^sb_session=|session/);
    expect(cookie.toLowerCase()).not.toContain('domain=');
  });

  it('refuses a hostname another account has verified', async () => {
    const res = await beta.call('PUT', '', { hostname: 'portal.agency.test' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('This domain is already verified by another account');
  });

  it('records a wrong token as failed with a clear message', async () => {
    await beta.call('PUT', '', { hostname: 'wrong.agency.test' });
    const res = await beta.call('POST', '/verify');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', lastCheckResult: expect.stringContaining('different token') });
    expect((await linkFor(t, beta.email, 'wrong.agency.test')).origin).toBe(PUBLIC_URL);
  });

  it('refuses a redirect to another host', async () => {
    await beta.call('PUT', '', { hostname: 'redirect.agency.test' });
    const res = await beta.call('POST', '/verify');
    expect(res.json()).toMatchObject({ status: 'failed', lastCheckResult: expect.stringContaining('another host') });
    expect(web.seen).not.toContain('elsewhere.agency.test');
  });

  it('checks once when the same verify is posted twice at once', async () => {
    await beta.call('PUT', '', { hostname: 'slow.agency.test' });
    const before = web.seen.filter((host) => host === 'slow.agency.test').length;
    const answers = await Promise.all([beta.call('POST', '/verify'), beta.call('POST', '/verify')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(web.seen.filter((host) => host === 'slow.agency.test').length - before).toBe(1);
    expect((await beta.call('GET')).json().domain).toMatchObject({ status: 'verified' });
  });

  it('verifies by DNS: the TXT record read automatically, or confirmed by an operator', async () => {
    const put = await beta.call('PUT', '', { hostname: 'dns.agency.test', method: 'dns' });
    const token = put.json().token as string;
    const missing = await beta.call('POST', '/verify');
    expect(missing.json()).toMatchObject({
      status: 'failed',
      lastCheckResult: expect.stringContaining('No TXT record _switchboard.dns.agency.test'),
    });
    dnsStub.txt.set('_switchboard.dns.agency.test', [[token.slice(0, 10), token.slice(10)]]);
    expect((await beta.call('POST', '/verify')).json()).toMatchObject({ status: 'verified', method: 'dns' });

    await beta.call('PUT', '', { hostname: 'ops.agency.test', method: 'dns' });
    const confirm = (cookie: string) =>
      t.app.inject({ method: 'POST', url: '/api/operator/domains/ops.agency.test/confirm', headers: { cookie } });
    expect((await confirm(beta.cookie)).statusCode).toBe(404);
    const operator = await seedAgency(t.deps.db, {
      accountName: 'Platform',
      owner: { email: 'operator@platform.test', name: 'Operator' },
      subaccounts: ['Ops'],
    });
    const confirmed = await confirm(await t.cookieFor(operator.ownerId));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ accountId: beta.accountId, domain: { status: 'verified' } });
    expect((await linkFor(t, beta.email, 'ops.agency.test')).origin).toBe('https://ops.agency.test');
  });

  it('stops using a removed domain for links at once', async () => {
    expect((await linkFor(t, alpha.email, 'portal.agency.test')).origin).toBe('https://portal.agency.test');
    expect((await alpha.call('DELETE')).statusCode).toBe(204);
    expect((await linkFor(t, alpha.email, 'portal.agency.test')).origin).toBe(PUBLIC_URL);
    expect((await alpha.call('DELETE')).statusCode).toBe(404);
    expect((await alpha.call('POST', '/verify')).statusCode).toBe(404);
  });
});

describe('a custom domain that resolves inside the network', () => {
  it('is refused as blocked without PRIVATE_URL_ALLOWLIST, and nothing is fetched', async () => {
    let platform: TestApp | null = null;
    const web = await startDomainServer(() => platform as TestApp);
    const t = await startTestApp({ PUBLIC_URL, DOMAIN_VERIFICATION_PORT: String(web.port) });
    platform = t;
    try {
      const agency = await newAgency(t, 'Inside Agency', SCALE);
      expect((await agency.call('PUT', '', { hostname: 'inside.agency.test' })).statusCode).toBe(200);
      const res = await agency.call('POST', '/verify');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'failed', lastCheckResult: expect.stringContaining('not public') });
      expect(web.seen).toEqual([]);
    } finally {
      await t.close();
      await web.close();
    }
  });
});
