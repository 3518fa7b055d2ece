import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DIRECT_LOGIN_ALLOWLIST: 'boss@agency.test' });
  await seedAgency(t.deps.db, DEMO_AGENCY);
});
afterAll(() => t.close());

const linkTokenFor = async (email: string) => {
  const mailbox = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
  const message = mailbox.json().messages.find((m: { to: string }) => m.to === email);
  return new URL(message.link).searchParams.get('token') as string;
};

describe('sign-in calls', () => {
  it('check-user trims and lower-cases the email and reports access', async () => {
    const known = await t.app.inject({ url: '/api/auth/check-user?email=%20ADMIN@demo.switchboard.local%20' });
    expect(known.json()).toEqual({ exists: true, hasAccess: true, needsVerification: false });
    const unknown = await t.app.inject({ url: '/api/auth/check-user?email=nobody@example.com' });
    expect(unknown.json()).toEqual({ exists: false, hasAccess: false, needsVerification: false });
  });

  it('refuses an empty email with Email is required', async () => {
    const response = await t.app.inject({ url: '/api/auth/check-user?email=%20%20' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'querystring.email' });
    expect(response.json().error.message).toContain('Email is required');
  });

  it('pre-register creates the user with an agency of their own, and linked access follows', async () => {
    const email = 'fresh@example.com';
    const before = await t.app.inject({ url: `/api/auth/check-linked-access?email=${email}` });
    expect(before.json()).toEqual({ hasLinkedAccess: false });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/pre-register',
      payload: { email, emailconsent: true },
    });
    expect(created.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/pre-register', payload: { email } });
    expect(again.json().userId).toBe(created.json().userId);
    const after = await t.app.inject({ url: `/api/auth/check-linked-access?email=${email}` });
    expect(after.json()).toEqual({ hasLinkedAccess: true });
    const check = await t.app.inject({ url: `/api/auth/check-user?email=${email}` });
    expect(check.json()).toEqual({ exists: true, hasAccess: true, needsVerification: true });
  });

  it('a magic link is spent only by the confirm POST, once', async () => {
    const email = DEMO_AGENCY.owner.email;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      payload: { email, callbackURL: '/agents/create' },
    });
    expect(sent.json()).toEqual({ sent: true });
    const token = await linkTokenFor(email);
    const page = await t.app.inject({ url: `/auth/confirm?token=${token}` });
    expect(page.statusCode).not.toBe(500);
    const confirmed = await t.app.inject({ method: 'POST', url: '/api/auth/confirm', payload: { token } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ redirectUrl: '/agents/create' });
    const cookie = confirmed.cookies.find((c) => c.name === 'sb_session');
    expect(cookie?.httpOnly).toBe(true);
    const session = await t.app.inject({ url: '/api/auth/session', cookies: { sb_session: cookie?.value ?? '' } });
    expect(session.json().user.email).toBe(email);
    const reused = await t.app.inject({ method: 'POST', url: '/api/auth/confirm', payload: { token } });
    expect(reused.statusCode).toBe(401);
  });

  it('direct login works only for allow-listed addresses', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/direct-login',
      payload: { email: DEMO_AGENCY.owner.email },
    });
    expect(refused.statusCode).toBe(403);
    const allowed = await t.app.inject({
      method: 'POST',
      url: '/api/direct-login',
      payload: { email: 'BOSS@agency.test' },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ redirectUrl: '/agents' });
  });

  it('sign-out ends the session', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/direct-login',
      payload: { email: 'boss@agency.test' },
    });
    const token = login.cookies.find((c) => c.name === 'sb_session')?.value ?? '';
    const before = await t.app.inject({ url: '/api/accounts', cookies: { sb_session: token } });
    expect(before.statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      cookies: { sb_session: token },
      payload: {},
    });
    expect(out.json()).toEqual({ success: true });
    const after = await t.app.inject({ url: '/api/accounts', cookies: { sb_session: token } });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
  });
});

describe('the login route', () => {
  it('/api/auth/signin opens the sign-in dialog on the home page', async () => {
    const plain = await t.app.inject({ url: '/api/auth/signin' });
    expect(plain.statusCode).toBe(302);
    expect(plain.headers.location).toBe('/?signin=1');
    const back = await t.app.inject({ url: '/api/auth/signin?callbackUrl=/usage' });
    expect(back.headers.location).toBe('/?signin=1&returnUrl=%2Fusage');
  });
});

describe('sign-in link rate limit', () => {
  it('refuses more links per address than the limit with a 429 envelope', async () => {
    const limited = await startTestApp({ SIGNIN_RATE_LIMIT_PER_MINUTE: '2' });
    const ask = () =>
      limited.app.inject({ method: 'POST', url: '/api/auth/sign-in/magic-link', payload: { email: 'a@example.com' } });
    expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(200);
    const third = await ask();
    expect(third.statusCode).toBe(429);
    expect(third.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    const other = await limited.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      payload: { email: 'b@example.com' },
    });
    expect(other.statusCode).toBe(200);
    await limited.close();
  });
});

describe('per-address limits on the public sign-in calls', () => {
  it('refuses more pre-registrations, sign-in links and email checks per address than the limits', async () => {
    const limited = await startTestApp({
      SIGNIN_ADDRESS_RATE_LIMIT_PER_MINUTE: '3',
      PREREGISTER_ADDRESS_RATE_LIMIT_PER_MINUTE: '2',
      CHECK_USER_ADDRESS_RATE_LIMIT_PER_MINUTE: '2',
    });
    try {
      const from = (ip: string) => ({ remoteAddress: ip });
      const links = [];
      for (let i = 0; i < 4; i += 1) {
        links.push(
          await limited.app.inject({
            method: 'POST',
            url: '/api/auth/sign-in/magic-link',
            payload: { email: `person${i}@example.com` },
            ...from('203.0.113.7'),
          }),
        );
      }
      expect(links.map((response) => response.statusCode)).toEqual([200, 200, 200, 429]);
      expect(links[3]?.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
      const elsewhere = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        payload: { email: 'person9@example.com' },
        ...from('198.51.100.4'),
      });
      expect(elsewhere.statusCode).toBe(200);
      const registers = [];
      for (let i = 0; i < 3; i += 1) {
        registers.push(
          await limited.app.inject({
            method: 'POST',
            url: '/api/auth/pre-register',
            payload: { email: `new${i}@example.com` },
            ...from('203.0.113.8'),
          }),
        );
      }
      expect(registers.map((response) => response.statusCode)).toEqual([200, 200, 429]);
      const checks = [];
      for (let i = 0; i < 3; i += 1) {
        checks.push(
          await limited.app.inject({ url: `/api/auth/check-user?email=c${i}@example.com`, ...from('203.0.113.9') }),
        );
      }
      expect(checks.map((response) => response.statusCode)).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
