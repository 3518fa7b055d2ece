import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { readPage, robotsRules, sitemapLocations } from './crawl';

describe('crawl parts', () => {
  it('reads robots.txt for our agent or *, the longest rule winning', () => {
    const allowed = robotsRules(
      'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nAllow: /private/open\nDisallow: /*.pdf$\n',
    );
    expect(allowed('/')).toBe(true);
    expect(allowed('/private/x')).toBe(false);
    expect(allowed('/private/open/page')).toBe(true);
    expect(robotsRules('User-agent: SwitchboardBot\nDisallow: /\n')('/anything')).toBe(false);
    expect(robotsRules('')('/x')).toBe(true);
  });

  it('reads a sitemap and a page without scripts, styles or navigation', () => {
    expect(
      sitemapLocations(
        '<urlset><url><loc> https://a.test/x?a=1&amp;b=2 </loc></url><url><loc>https://a.test/y</loc></url></urlset>',
      ),
    ).toEqual(['https://a.test/x?a=1&b=2', 'https://a.test/y']);
    const page = readPage(
      '<html><head><title>Prices</title><script>var secret=1</script></head><body><nav><a href="/home">Home</a></nav><h1>Whitening</h1><p>Costs <b>£250</b>.</p><style>p{}</style><a href="/book#top">Book</a></body></html>',
      new URL('https://a.test/prices'),
    );
    expect(page.title).toBe('Prices');
    expect(page.text).toBe('Whitening\n\nCosts £250.\n\nBook');
    expect(page.links).toEqual(['https://a.test/home', 'https://a.test/book#top']);
  });

  it('reads a huge page of nested tags in linear time', () => {
    const html = `${'<div>'.repeat(20_000)}x${'</div>'.repeat(20_000)}`;
    expect(readPage(html, new URL('https://a.test/')).text).toBe('x');
  });
});

describe('website knowledge over HTTP', () => {
  let site: Server;
  let siteUrl: string;
  let t: TestApp;
  let cookie: string;
  let agentId: string;
  let version = 1;
  const requested: string[] = [];
  const PAGES: Record<string, string> = {
    '/': '<title>Bright Smile</title><p>Welcome to Bright Smile Dental.</p><a href="/whitening">Whitening</a><a href="/private/staff">Staff</a><a href="https://elsewhere.test/x">Elsewhere</a><a href="/prices">Prices</a>',
    '/whitening': '<title>Whitening</title><p>Our whitening session takes 90 minutes.</p><a href="/">Home</a>',
    '/prices': '<title>Prices</title><p>A check-up costs 45 pounds.</p><a href="/more">More</a>',
    '/more': '<title>More</title><p>More pages.</p>',
    '/private/staff': '<p>Staff only.</p>',
  };

  beforeAll(async () => {
    site = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      requested.push(path);
      if (path === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end('User-agent: *\nDisallow: /private\n');
      }
      if (path === '/sitemap.xml') {
        response.writeHead(200, { 'content-type': 'application/xml' });
        return response.end(
          `<urlset><url><loc>${siteUrl}/prices</loc></url><url><loc>${siteUrl}/whitening</loc></url></urlset>`,
        );
      }
      const page = PAGES[path];
      if (!page) {
        response.writeHead(404);
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html><head>${page.replace('90 minutes', `${90 * version} minutes`)}</head><body>${page}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await startTestApp({ PRIVATE_URL_ALLOWLIST: '127.0.0.1', KNOWLEDGE_CRAWL_MAX_PAGES: '3' });
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Crawl Agency',
      owner: { email: 'owner@crawl.test', name: 'Owner' },
      subaccounts: ['Dental'],
    });
    agentId = (
      await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: agency.subaccountIds[0] as string })
    ).id;
    cookie = await t.cookieFor(agency.ownerId);
  });
  afterAll(async () => {
    await t.close();
    site.close();
  });

  const importSite = (url: string, maxPages = 10) =>
    t.app.inject({
      method: 'POST',
      url: `/api/agents/${agentId}/websites`,
      headers: { cookie },
      payload: { url, maxPages },
    });

  it('crawls within the site, respects robots.txt and the page limit, and answers citing the page', async () => {
    const res = await importSite(`${siteUrl}/`);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.pages).toBe(3);
    expect(body.documents.map((doc: { name: string }) => doc.name)).toEqual([
      `${siteUrl}/`,
      `${siteUrl}/whitening`,
      `${siteUrl}/prices`,
    ]);
    expect(body.disallowed).toBe(1);
    expect(requested).not.toContain('/private/staff');
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/openai/run-prompt`,
      headers: { cookie },
      payload: { assistantId: agentId, message: 'How long does a whitening session take?' },
    });
    expect(reply.json().message).toContain('90 minutes');
    expect(reply.json().message).toContain(`${siteUrl}/whitening`);
  });

  it('re-crawls on demand, replacing the pages of that site; a sitemap works as the start', async () => {
    version = 2;
    const res = await importSite(`${siteUrl}/sitemap.xml`, 2);
    expect(res.statusCode).toBe(201);
    expect(res.json().documents.map((doc: { name: string }) => doc.name)).toEqual([
      `${siteUrl}/prices`,
      `${siteUrl}/whitening`,
    ]);
    const list = await t.app.inject({ url: `/api/agents/${agentId}/documents`, headers: { cookie } });
    expect(list.json().documents).toHaveLength(2);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/openai/run-prompt`,
      headers: { cookie },
      payload: { assistantId: agentId, message: 'How long does a whitening session take?' },
    });
    expect(reply.json().message).toContain('180 minutes');
  });

  it('refuses addresses inside the network and bad input, storing nothing', async () => {
    for (const url of [
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'ftp://example.com/',
      'not a url',
    ]) {
      const res = await importSite(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.field, url).toMatch(/url/);
    }
    const list = await t.app.inject({ url: `/api/agents/${agentId}/documents`, headers: { cookie } });
    expect(list.json().documents).toHaveLength(2);
  });
});
