import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';

/** A local stand-in for Google's token and userinfo endpoints, over real HTTP. */
let google: Server;
let base = '';
const seen: { tokenBody?: URLSearchParams } = {};

beforeAll(async () => {
  google = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/token') {
        seen.tokenBody = new URLSearchParams(body);
        response.end(JSON.stringify({ access_token: 'google-access-token', token_type: 'Bearer' }));
        return;
      }
      if (request.url === '/userinfo' && request.headers.authorization === 'Bearer google-access-token') {
        response.end(
          JSON.stringify({ sub: 'g-123', email: 'Person@Gmail.test', email_verified: true, name: 'Pat Person' }),
        );
        return;
      }
      response.statusCode = 401;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => google.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => google.close(() => resolve())));

describe('Google sign-in', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('is off without a client id', async () => {
    const off = await startTestApp();
    const response = await off.app.inject({ url: '/api/auth/google' });
    expect(response.statusCode).toBe(404);
    expect((await off.app.inject({ url: '/api/auth/session' })).json().providers.google).toBe(false);
    await off.close();
  });

  it('signs in through the authorisation code flow with PKCE and state', async () => {
    t = await startTestApp({
      GOOGLE_CLIENT_ID: 'client-id',
      GOOGLE_CLIENT_SECRET: 'client-secret',
      GOOGLE_AUTH_URL: `${base}/auth`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_USERINFO_URL: `${base}/userinfo`,
    });
    const start = await t.app.inject({ url: '/api/auth/google?callbackURL=/agents&emailconsent=true' });
    expect(start.statusCode).toBe(302);
    const location = new URL(start.headers.location as string);
    expect(location.origin + location.pathname).toBe(`${base}/auth`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    const stateCookie = start.cookies.find((cookie) => cookie.name === 'sb_google_state');
    const state = location.searchParams.get('state');

    const forged = await t.app.inject({
      url: '/api/auth/callback/google?code=abc&state=wrong',
      cookies: { sb_google_state: stateCookie?.value ?? '' },
    });
    expect(forged.headers.location).toBe('/?signin=1&error=google');

    const done = await t.app.inject({
      url: `/api/auth/callback/google?code=the-code&state=${state}`,
      cookies: { sb_google_state: stateCookie?.value ?? '' },
    });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/agents');
    expect(seen.tokenBody?.get('code')).toBe('the-code');
    expect(seen.tokenBody?.get('code_verifier')).toBeTruthy();
    const session = done.cookies.find((cookie) => cookie.name === 'sb_session');
    const me = await t.app.inject({ url: '/api/auth/session', cookies: { sb_session: session?.value ?? '' } });
    expect(me.json().user).toMatchObject({ email: 'person@gmail.test', name: 'Pat Person' });
  });
});
