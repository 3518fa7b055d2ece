import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POST_LOGIN_PATH } from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../platform/env';
import { originOf, parseAuthority } from '../../platform/http';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

const lastLinkTo = async (t: TestApp, email: string) => {
  const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
  const message = mailbox.json().messages.find((m: { to: string }) => m.to === email);
  return new URL(message.link);
};

const askForLink = (t: TestApp, email: string, host: string, callbackURL?: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/magic-link',
    headers: { host, 'x-forwarded-host': 'evil.example' },
    payload: { email, ...(callbackURL === undefined ? {} : { callbackURL }) },
  });

const confirmLink = async (t: TestApp, link: URL) => {
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/auth/confirm',
    payload: { token: link.searchParams.get('token') },
  });
  return confirmed.json().redirectUrl as string;
};

describe('emailed links without PUBLIC_URL (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      PORT: '3456',
      DEV_ALLOWED_HOSTS: 'switchboard.lan',
      SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
    });
    await seedAgency(t.deps.db, DEMO_AGENCY);
  });
  afterAll(() => t.close());

  it('never lets a forged Host header choose the origin of a sign-in link', async () => {
    const email = DEMO_AGENCY.owner.email;
    expect((await askForLink(t, email, 'evil.example')).statusCode).toBe(200);
    expect((await lastLinkTo(t, email)).origin).toBe('http://localhost:3456');
  });

  it('uses the origin of a loopback host, or of a host DEV_ALLOWED_HOSTS lists', async () => {
    const email = DEMO_AGENCY.owner.email;
    await askForLink(t, email, '127.0.0.1:5173');
    expect((await lastLinkTo(t, email)).origin).toBe('http://127.0.0.1:5173');
    await askForLink(t, email, 'switchboard.lan:8080');
    expect((await lastLinkTo(t, email)).origin).toBe('http://switchboard.lan:8080');
  });

  it('puts the configured origin into invitations sent with a forged Host', async () => {
    const owner = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(owner.statusCode).toBe(200);
    const seeded = await seedAgency(t.deps.db, {
      accountName: 'Invite Agency',
      owner: { email: 'owner@invite.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/subaccounts/${seeded.subaccountIds[0]}/members`,
      headers: { host: 'evil.example', cookie: await t.cookieFor(seeded.ownerId) },
      payload: { email: 'new.member@invite.test', role: 'member' },
    });
    expect(invited.statusCode).toBe(200);
    expect((await lastLinkTo(t, 'new.member@invite.test')).origin).toBe('http://localhost:3456');
  });

  it.each([
    ['/\t/evil.example'],
    ['/\\evil'],
    ['//evil'],
    ['/\n/evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['/%0a'.replace('%0a', '\r')],
  ])('refuses the return path %j and lands on the default page', async (callbackURL) => {
    const email = DEMO_AGENCY.owner.email;
    const sent = await askForLink(t, email, 'localhost', callbackURL);
    expect(sent.statusCode).toBe(200);
    expect(await confirmLink(t, await lastLinkTo(t, email))).toBe(POST_LOGIN_PATH);
    const signin = await t.app.inject({ url: `/api/auth/signin?callbackUrl=${encodeURIComponent(callbackURL)}` });
    expect(signin.headers.location).toBe('/?signin=1');
  });

  it('keeps a same-site return path', async () => {
    const email = DEMO_AGENCY.owner.email;
    await askForLink(t, email, 'localhost', '/usage?tab=credits');
    expect(await confirmLink(t, await lastLinkTo(t, email))).toBe('/usage?tab=credits');
  });
});

/** Host spellings that name loopback first and another site after an `@` (userinfo). */
const FORGED_AUTHORITIES = ['localhost:@evil.example', 'localhost:4401@evil.example', '[::1]@evil.example'];

describe('a Host that is not a plain authority (without PUBLIC_URL)', () => {
  let t: TestApp;
  let cookie: string;
  let subaccountId: string;
  beforeAll(async () => {
    t = await startTestApp({
      PORT: '3457',
      SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    const seeded = await seedAgency(t.deps.db, DEMO_AGENCY);
    cookie = await t.cookieFor(seeded.ownerId);
    subaccountId = seeded.subaccountIds[0] ?? '';
  });
  afterAll(() => t.close());

  /** Every route that builds a link from the request's origin. */
  const linkBuilders = () => [
    { method: 'POST' as const, url: '/api/auth/sign-in/magic-link', payload: { email: DEMO_AGENCY.owner.email } },
    { method: 'GET' as const, url: '/api/auth/google' },
    {
      method: 'POST' as const,
      url: `/api/subaccounts/${subaccountId}/members`,
      payload: { email: 'forged.invite@demo.test', role: 'member' },
      signedIn: true,
    },
    { method: 'GET' as const, url: '/api/affiliate', signedIn: true },
    { method: 'GET' as const, url: '/api/billing/overview', signedIn: true },
    {
      method: 'POST' as const,
      url: '/api/stripe/create-checkout',
      payload: { priceId: 'price_growth_monthly' },
      signedIn: true,
    },
    {
      method: 'POST' as const,
      url: '/api/marketplace/projects/mkp_any/respond',
      payload: { message: 'Interested' },
      signedIn: true,
    },
    { method: 'GET' as const, url: '/widget/wgt_any' },
  ];

  it.each(FORGED_AUTHORITIES)('refuses %s on every link-building route with 400, and mails nothing', async (host) => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).json().messages.length;
    for (const { signedIn, ...route } of linkBuilders()) {
      const answer = await t.app.inject({
        ...route,
        headers: { host, 'x-subaccount-id': subaccountId, ...(signedIn ? { cookie } : {}) },
      });
      expect({ url: route.url, status: answer.statusCode }).toEqual({ url: route.url, status: 400 });
      expect(answer.json().error.code).toBe('BAD_REQUEST');
      expect(answer.body).not.toContain('evil.example');
    }
    const after = (await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).json().messages.length;
    expect(after).toBe(before);
  });

  it('still answers a plain loopback Host, with or without a port', async () => {
    for (const host of ['localhost', 'localhost:3457', '127.0.0.1:5173', '[::1]:3457']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        headers: { host },
        payload: { email: DEMO_AGENCY.owner.email },
      });
      expect(answer.statusCode).toBe(200);
      expect((await lastLinkTo(t, DEMO_AGENCY.owner.email)).origin).toBe(new URL(`http://${host}`).origin);
    }
  });

  it('builds the origin from the parsed host and port only, even past the edge check', () => {
    const env = loadEnv({ PORT: '3457' });
    const requestWith = (host: string) => ({ host, protocol: 'http' }) as FastifyRequest;
    for (const host of FORGED_AUTHORITIES) expect(originOf(requestWith(host), env)).toBe('http://localhost:3457');
    expect(originOf(requestWith('LOCALHOST:8080'), env)).toBe('http://localhost:8080');
  });

  it.each([
    ['localhost:@evil.example'],
    ['user@localhost'],
    ['localhost/evil'],
    ['localhost:'],
    ['localhost:0'],
    ['localhost:65536'],
    ['localhost:80:81'],
    ['[::1'],
    ['[evil.example]'],
    ['-bad.example'],
    ['a..b'],
    [''],
  ])('parseAuthority refuses %j', (value) => {
    expect(parseAuthority(value)).toBeNull();
  });

  it('parseAuthority reads host names, addresses and ports', () => {
    expect(parseAuthority('Switchboard.LAN:8080')).toEqual({ hostname: 'switchboard.lan', port: 8080 });
    expect(parseAuthority('[::1]:3000')).toEqual({ hostname: '[::1]', port: 3000 });
    expect(parseAuthority('127.0.0.1')).toEqual({ hostname: '127.0.0.1', port: null });
  });
});

describe('emailed links with PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://switchboard.example.com', SIGNIN_RATE_LIMIT_PER_MINUTE: '1000' });
    await seedAgency(t.deps.db, DEMO_AGENCY);
  });
  afterAll(() => t.close());

  it('always uses PUBLIC_URL, whatever the Host, loopback included', async () => {
    const email = DEMO_AGENCY.owner.email;
    for (const host of ['evil.example', 'localhost:3000']) {
      await askForLink(t, email, host);
      expect((await lastLinkTo(t, email)).origin).toBe('https://switchboard.example.com');
    }
  });
});

describe('production start', () => {
  it('refuses to load settings without PUBLIC_URL, naming it', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL/);
    expect(loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://switchboard.example.com' }).PUBLIC_URL).toBe(
      'https://switchboard.example.com',
    );
    expect(() => loadEnv({ PUBLIC_URL: 'https://switchboard.example.com/app?x=1' })).toThrow(/PUBLIC_URL/);
  });

  it('refuses PostgreSQL in production without ENCRYPTION_KEY, naming it', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://switchboard.example.com',
      DATABASE_URL: 'postgres://db/switchboard',
    };
    expect(() => loadEnv(production)).toThrow(/ENCRYPTION_KEY is required in production on PostgreSQL/);
    expect(loadEnv({ ...production, ENCRYPTION_KEY: 'a'.repeat(64) }).ENCRYPTION_KEY).toBe('a'.repeat(64));
  });

  it('stops the server process with a one-line message naming PUBLIC_URL, not a stack trace', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: '/tmp/switchboard-no-public-url' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PUBLIC_URL is required in production');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
