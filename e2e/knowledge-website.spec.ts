import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { DEMO_USERS, expectAccessible, signIn } from './support';

test('an agency adds its website as knowledge and the agent answers citing the page', async ({ page }) => {
  test.setTimeout(120_000);
  const site = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end('User-agent: *\nDisallow: /admin\n');
    }
    const pages: Record<string, string> = {
      '/': '<title>Cake Co</title><nav><a href="/prices">Prices</a><a href="/admin">Admin</a></nav><p>Welcome to Cake Co in York.</p>',
      '/prices': '<title>Prices</title><p>A birthday cake costs 35 pounds and takes two days to bake.</p>',
    };
    const body = pages[path];
    response.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
    response.end(body ? `<!doctype html><html><head></head><body>${body}</body></html>` : '');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  try {
    await signIn(page, DEMO_USERS.admin);
    await page.getByLabel('Your agent idea').fill('A friendly assistant for Cake Co in York that takes cake orders');
    // An earlier journey may have added a provider; this one drafts with the offline model.
    await page.getByLabel('Model that writes the draft').selectOption('offline::offline');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);

    await page.getByLabel('Website or sitemap').fill('http://10.0.0.8/');
    await page.getByRole('button', { name: 'Add website' }).click();
    await expect(page.getByText('This address is not public and cannot be reached')).toBeVisible();

    await page.getByLabel('Website or sitemap').fill(`${origin}/`);
    await page.getByRole('button', { name: 'Add website' }).click();
    await expect(page.getByText(`2 pages of ${origin} added (1 not allowed by robots.txt)`)).toBeVisible({
      timeout: 30_000,
    });
    const documents = page.getByRole('list', { name: 'Documents' });
    await expect(documents.getByText(`${origin}/prices`)).toBeVisible();
    await expect(page.getByRole('button', { name: `Re-crawl ${origin}` })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Test message').fill('How much does a birthday cake cost?');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log');
    await expect(log).toContainText('35 pounds');
    await log.getByText(/Sources \(\d\)/).click();
    await expect(log.getByRole('list', { name: 'Sources' })).toContainText(`${origin}/prices`);
  } finally {
    site.close();
  }
});
