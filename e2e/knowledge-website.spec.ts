import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

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

    // The offline model has no embeddings: the card says the search is by keywords, and why.
    await expect(page.getByTestId('knowledge-search')).toHaveText(
      'Search: keywords. Search by meaning needs an OpenAI model on this agent and an OpenAI key in Settings.',
    );

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

interface OpenAiStub {
  url: string;
  close(): Promise<void>;
}
/** The OpenAI stand-in shared with the server tests (its embeddings put synonyms together), loaded by path. */
const OPENAI_STUB_MODULE = '../apps/server/src/testing/openai-stub.ts';

test('an agent on OpenAI finds a passage by meaning, not only by its words, and cites it', async ({ page }) => {
  test.setTimeout(120_000);
  const { startOpenAiStub } = (await import(OPENAI_STUB_MODULE)) as { startOpenAiStub: () => Promise<OpenAiStub> };
  const stub = await startOpenAiStub();
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
  const headers = { 'x-subaccount-id': subaccountId };
  try {
    const key = await page.request.put(`/api/connect/${subaccountId}/providers/openai`, {
      data: { apiKey: 'sk-e2e-meaning-1234', baseUrl: stub.url },
    });
    expect(key.ok(), await key.text()).toBe(true);
    const created = await page.request.post('/api/agents', {
      headers,
      data: { name: 'Sunrise Meaning Search', provider: 'openai', model: 'stub-chat', systemPrompt: 'Answer briefly.' },
    });
    expect(created.status()).toBe(201);
    const agentId = ((await created.json()) as { id: string }).id;
    await page.goto(`/agents/${agentId}`);
    await page.getByLabel('Upload a document').setInputFiles([
      {
        name: 'fees.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Fees\n\nA roof survey is 90 pounds, taken off the installation price.'),
      },
    ]);
    await expect(page.getByText('fees.md added')).toBeVisible();
    await page.getByLabel('Upload a document').setInputFiles([
      {
        name: 'hours.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Opening\n\nWe are open Monday to Friday from 8 in the morning.'),
      },
    ]);
    await expect(page.getByText('hours.md added')).toBeVisible();
    // The passages are embedded by a background job; the card follows it.
    await expect(page.getByTestId('knowledge-search')).toHaveText(
      'Search: keywords and meaning (text-embedding-3-small).',
      { timeout: 30_000 },
    );
    await expectAccessible(page);

    // No word of the question is in the fees page; its meaning is.
    await page.getByLabel('Test message').fill('What does it cost?');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('log');
    await expect(log).toContainText('Stub reply to: What does it cost?');
    await log.getByText(/Sources \(\d\)/).click();
    await expect(log.getByRole('list', { name: 'Sources' }).getByText('fees.md')).toBeVisible();
  } finally {
    // Later journeys draft and chat without this key.
    await page.request.delete(`/api/connect/${subaccountId}/providers/openai`);
    await stub.close();
  }
});
