import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POST_LOGIN_PATH } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../platform/env';
import { startTestApp, type TestApp } from '../../testing/harness';
import { DEMO_AGENCY, seedAgency } from '../tenancy/seed';

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
