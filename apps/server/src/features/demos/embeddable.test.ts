import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { isEmbeddable } from './embeddable';

/** A local site: /open frames anywhere, /deny and /csp forbid it, /redirect-* bounce elsewhere. */
const startSite = async (redirectTarget: () => string) => {
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/deny') response.setHeader('x-frame-options', 'DENY');
    if (path === '/csp') response.setHeader('content-security-policy', "default-src 'self'; frame-ancestors 'none'");
    if (path === '/redirect-private') {
      response.writeHead(302, { location: redirectTarget() });
      return response.end();
    }
    if (path === '/redirect-metadata') {
      response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      return response.end();
    }
    if (path === '/redirect-ten') {
      response.writeHead(302, { location: 'http://10.0.0.1/' });
      return response.end();
    }
    if (path === '/redirect-open') {
      response.writeHead(301, { location: '/open' });
      return response.end();
    }
    if (path === '/loop') {
      response.writeHead(302, { location: '/loop' });
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>site</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

let t: TestApp;
let site: http.Server;
let other: http.Server;
let siteBase: string;

const check = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/check-embeddable',
    payload: { url },
    headers: { origin: 'http://app.test' },
  });

beforeAll(async () => {
  other = await startSite(() => 'http://10.0.0.1/');
  const otherPort = (other.address() as AddressInfo).port;
  site = await startSite(() => `http://127.0.0.1:${otherPort}/open`);
  const port = (site.address() as AddressInfo).port;
  siteBase = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PRIVATE_URL_ALLOWLIST: `127.0.0.1:${port}` });
});
afterAll(async () => {
  await t?.close();
  site?.close();
  other?.close();
});

describe('POST /api/check-embeddable refuses addresses that are not public', () => {
  const refused = [
    ['loopback', 'http://127.0.0.1/'],
    ['loopback on another port', 'http://127.0.0.1:5432/'],
    ['a private network address', 'http://10.0.0.1/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['a decimal-encoded loopback', 'http://2130706433/'],
    ['an octal-encoded loopback', 'http://0177.0.0.1/'],
    ['a hex-encoded metadata address', 'http://0xa9fea9fe/'],
    ['the unspecified address', 'http://0.0.0.0/'],
    ['a carrier-grade NAT address', 'http://100.64.0.1/'],
    ['a hostname that resolves to loopback', 'http://localhost/'],
    ['a non-web scheme', 'file:///etc/passwd'],
  ];
  for (const [label, url] of refused) {
    it(`refuses ${label}`, async () => {
      const response = await check(url as string);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    });
  }

  it('refuses a redirect from an allowed site to a private address, hop by hop', async () => {
    const response = await check(`${siteBase}/redirect-private`);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(/not public|standard web ports/);
  });

  it('refuses redirects to the metadata address and a private network, checked on the hop', async () => {
    for (const path of ['/redirect-metadata', '/redirect-ten']) {
      const response = await check(`${siteBase}${path}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.message).toBe('This address is not public and cannot be reached');
    }
  });

  it('stops after three redirects', async () => {
    const response = await check(`${siteBase}/loop`);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toBe('The address redirects too many times');
  });

  it('answers a bad body with a 4xx naming the field', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/check-embeddable', payload: {} });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('POST /api/check-embeddable reads the framing headers', () => {
  it('says a page without framing headers can be embedded', async () => {
    const response = await check(`${siteBase}/open`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ embeddable: true });
  });

  it('follows an allowed redirect', async () => {
    expect((await check(`${siteBase}/redirect-open`)).json().embeddable).toBe(true);
  });

  it('says X-Frame-Options DENY and frame-ancestors none cannot be embedded', async () => {
    expect((await check(`${siteBase}/deny`)).json().embeddable).toBe(false);
    expect((await check(`${siteBase}/csp`)).json().embeddable).toBe(false);
  });
});

describe('isEmbeddable', () => {
  const origin = 'https://app.example.com';
  it('lets CSP frame-ancestors decide before X-Frame-Options', () => {
    expect(
      isEmbeddable(
        200,
        { 'content-security-policy': 'frame-ancestors https://*.example.com', 'x-frame-options': 'DENY' },
        origin,
      ),
    ).toBe(true);
    expect(isEmbeddable(200, { 'content-security-policy': "frame-ancestors 'self'" }, origin)).toBe(false);
    expect(isEmbeddable(200, { 'content-security-policy': 'frame-ancestors *' }, origin)).toBe(true);
    expect(isEmbeddable(200, { 'content-security-policy': 'frame-ancestors https://other.com' }, origin)).toBe(false);
  });
  it('refuses SAMEORIGIN and failing pages', () => {
    expect(isEmbeddable(200, { 'x-frame-options': 'SAMEORIGIN' }, origin)).toBe(false);
    expect(isEmbeddable(404, {}, origin)).toBe(false);
    expect(isEmbeddable(200, {}, origin)).toBe(true);
  });
});
