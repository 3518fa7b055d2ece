import http from 'node:http';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

/**
 * A local website for the website presentation: /open may be framed, /deny forbids it.
 * Its host is allowed through PRIVATE_URL_ALLOWLIST by e2e/serve.mjs.
 */
const SITE_PORT = 3298;
const SITE = `http://127.0.0.1:${SITE_PORT}`;
let site: http.Server;

test.beforeAll(async () => {
  site = http.createServer((request, response) => {
    if (request.url === '/deny') response.setHeader('x-frame-options', 'DENY');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><html lang="en"><title>Client site</title><h1>Welcome to the client site</h1></html>');
  });
  await new Promise<void>((resolve) => site.listen(SITE_PORT, '127.0.0.1', resolve));
});
test.afterAll(() => {
  site?.close();
});

const TYPES = [
  { label: 'Website widget', name: 'E2E Website' },
  { label: 'SMS', name: 'E2E SMS' },
  { label: 'Facebook', name: 'E2E Facebook' },
  { label: 'Instagram', name: 'E2E Instagram' },
  { label: 'Standard chat', name: 'E2E Standard' },
];

const demoItem = (page: Page, name: string) =>
  page.getByTestId('demo-item').filter({ has: page.getByRole('heading', { name, exact: true }) });

const shareLinkOf = async (page: Page, name: string) => {
  const link = await demoItem(page, name)
    .getByRole('link', { name: /\/shared\/dmo_/ })
    .textContent();
  expect(link).toMatch(/^http:\/\/localhost:\d+\/shared\/dmo_[a-z0-9]+$/);
  return link as string;
};

/** A fresh browser context with no session, as the client opening the link. */
const visitorPage = async (browser: Browser, baseURL: string | undefined) => {
  const context = await browser.newContext({ baseURL });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  return context.newPage();
};

/** Toasts are the shared toaster's; the page itself is what is checked. */
const checkAccessible = async (page: Page) => {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page);
};

const editDemo = async (page: Page, name: string) => {
  await demoItem(page, name).getByRole('button', { name: 'Edit' }).click();
  return page.getByRole('dialog', { name: `Edit demo: ${name}` });
};

test('an agency turns an agent into demos of every type and a client uses the share link', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/demo');
  await expect(page.getByRole('heading', { name: 'Create a demo' })).toBeVisible();
  await expect(page.getByLabel('Agent', { exact: true })).toContainText('Sunrise Solar Assistant');

  for (const type of TYPES) {
    await page.getByLabel('Demo name').fill(type.name);
    await page.getByRole('radio', { name: type.label }).check();
    await page.getByRole('button', { name: 'Create demo' }).click();
    const editor = page.getByRole('dialog', { name: `Edit demo: ${type.name}` });
    await expect(editor).toBeVisible();
    await editor.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(demoItem(page, type.name)).toContainText('0 / 100 requests used');
  }
  await checkAccessible(page);

  // The standard demo: a limit of 2 with the request counter, edited with the live preview.
  const editor = await editDemo(page, 'E2E Standard');
  await editor.getByLabel('Request limit').fill('2');
  await editor.getByRole('switch', { name: 'Show request counter' }).check();
  await editor.getByLabel('Welcome message', { exact: true }).fill('Hi! Ask me about solar.');
  const preview = editor.getByRole('region', { name: 'Live preview' });
  await expect(preview.getByText('Hi! Ask me about solar.')).toBeVisible();
  await expect(preview.getByTestId('request-counter')).toHaveText('0 / 2 requests used');
  await checkAccessible(page);
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor).toBeHidden();
  await expect(demoItem(page, 'E2E Standard')).toContainText('0 / 2 requests used');

  // The client opens the link with no session, chats, clears, copies the link and reaches the limit.
  const standardLink = await shareLinkOf(page, 'E2E Standard');
  const client = await visitorPage(browser, baseURL);
  await client.goto(standardLink);
  await expect(client.getByRole('heading', { name: 'E2E Standard' }).first()).toBeVisible();
  await expect(client.getByText('Hi! Ask me about solar.')).toBeVisible();
  await expect(client.getByTestId('request-counter')).toHaveText('0 / 2 requests used');
  const input = client.getByRole('textbox', { name: 'Message' });
  await input.fill('How much can I save with solar?');
  await input.press('Enter');
  await expect(client.getByTestId('demo-user-message')).toHaveText('How much can I save with solar?');
  await expect(client.getByTestId('demo-bot-message')).toHaveCount(2);
  await expect(client.getByTestId('request-counter')).toHaveText('1 / 2 requests used');
  await checkAccessible(client);

  await client.getByRole('button', { name: 'Clear' }).click();
  await expect(client.getByTestId('demo-user-message')).toHaveCount(0);
  await expect(client.getByTestId('demo-bot-message')).toHaveText('Hi! Ask me about solar.');

  await client.getByRole('button', { name: 'Share' }).click();
  await expect(client.getByText('Link copied to clipboard!')).toBeVisible();
  expect(await client.evaluate(() => navigator.clipboard.readText())).toBe(standardLink);

  await input.fill('Second question');
  await input.press('Enter');
  await expect(client.getByTestId('request-counter')).toHaveText('2 / 2 requests used');
  await input.fill('One more');
  await input.press('Enter');
  await expect(
    client.getByText('Demo usage limit reached. Please contact the demo creator for a new link.'),
  ).toBeVisible();
  await expect(client.getByTestId('demo-bot-message').last()).toHaveText(
    'Sorry, I encountered an error. Please try again in a moment.',
  );

  // The agency sees the count, raises the limit and resets the counter.
  await page.reload();
  await expect(demoItem(page, 'E2E Standard')).toContainText('2 / 2 requests used');
  await demoItem(page, 'E2E Standard').getByLabel('Request limit').fill('5');
  await demoItem(page, 'E2E Standard').getByRole('button', { name: 'Save limit' }).click();
  await expect(demoItem(page, 'E2E Standard')).toContainText('2 / 5 requests used');
  await demoItem(page, 'E2E Standard').getByRole('button', { name: 'Reset counter' }).click();
  await expect(demoItem(page, 'E2E Standard')).toContainText('0 / 5 requests used');

  // The phone and social presentations.
  await client.goto(await shareLinkOf(page, 'E2E SMS'));
  await expect(client.getByTestId('iphone-frame')).toBeVisible();
  await expect(client.getByText('Messages', { exact: true })).toBeVisible();
  await expect(client.getByPlaceholder('iMessage')).toBeVisible();
  await client.getByPlaceholder('iMessage').fill('Hello phone');
  await client.getByPlaceholder('iMessage').press('Enter');
  await expect(client.getByTestId('demo-bot-message')).toHaveCount(2);
  await client.goto(await shareLinkOf(page, 'E2E Facebook'));
  await expect(client.getByText('Typically replies instantly')).toBeVisible();
  await expect(client.getByPlaceholder('Type a message...')).toBeVisible();
  await client.goto(await shareLinkOf(page, 'E2E Instagram'));
  await expect(client.getByText('Active now')).toBeVisible();
  await expect(client.getByPlaceholder('Message...')).toBeVisible();
  await checkAccessible(client);

  // The website widget over a local page that allows framing, then over one that forbids it.
  let websiteEditor = await editDemo(page, 'E2E Website');
  await websiteEditor.getByLabel('Website background URL').fill(`${SITE}/open`);
  await websiteEditor.getByRole('switch', { name: 'Show request counter' }).check();
  await websiteEditor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(websiteEditor).toBeHidden();
  const websiteLink = await shareLinkOf(page, 'E2E Website');
  await client.goto(websiteLink);
  await expect(
    client.frameLocator('iframe[title="Website preview"]').getByRole('heading', { name: 'Welcome to the client site' }),
  ).toBeVisible({ timeout: 20_000 });
  // The professional template runs the visitor widget's own chat window in a frame.
  const widget = client.frameLocator('iframe[title="E2E Website chat window"]');
  const widgetInput = widget.getByRole('textbox');
  await expect(widgetInput).toBeVisible({ timeout: 20_000 });
  await widgetInput.fill('Do you install panels?');
  await widgetInput.press('Enter');
  await expect(client.getByTestId('request-counter')).toHaveText('1 / 100 requests used');
  await expect(widget.getByRole('log', { name: 'Messages' })).toContainText('Do you install panels?');
  await widget.getByRole('button', { name: 'Close chat' }).click();
  await expect(client.getByRole('button', { name: 'Open chat' })).toBeVisible();
  await expect(client.getByText('Hi there! Need any help?')).toBeVisible();
  await client.getByRole('button', { name: 'Open chat' }).click();
  await expect(widgetInput).toBeVisible();

  websiteEditor = await editDemo(page, 'E2E Website');
  await websiteEditor.getByLabel('Website background URL').fill(`${SITE}/deny`);
  await websiteEditor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(websiteEditor).toBeHidden();
  await client.goto(websiteLink);
  await expect(client.getByRole('heading', { name: 'This website does not support previews' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(client.locator('iframe[title="Website preview"]')).toHaveCount(0);

  // The legacy template is the built-in panel.
  websiteEditor = await editDemo(page, 'E2E Website');
  await websiteEditor.getByLabel('Widget template').selectOption('legacy');
  await websiteEditor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(websiteEditor).toBeHidden();
  await client.goto(websiteLink);
  const panel = client.getByRole('region', { name: 'E2E Website chat' });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Legacy hello');
  await panel.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(panel.getByTestId('demo-bot-message')).toHaveCount(2);
  await panel.getByRole('button', { name: 'Clear conversation' }).click();
  await expect(panel.getByTestId('demo-user-message')).toHaveCount(0);

  // The embedded variant hides the counter; an unknown demo says so.
  await client.goto(`${standardLink}?embed=1`);
  await expect(client.getByPlaceholder('Type your message here...')).toBeVisible();
  await expect(client.getByTestId('request-counter')).toHaveCount(0);
  await client.goto('/shared/dmo_doesnotexist');
  await expect(client.getByText('Demo configuration not found. Please contact the demo creator.')).toBeVisible();

  // Deleting needs 'confirm'.
  await demoItem(page, 'E2E Instagram').getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete demo' });
  const deleteButton = dialog.getByRole('button', { name: 'Delete' });
  await expect(deleteButton).toBeDisabled();
  await dialog.getByLabel('Type confirm to delete').fill('CONFIRM');
  await deleteButton.click();
  await expect(demoItem(page, 'E2E Instagram')).toHaveCount(0);
  await client.context().close();
});

test('the demo page works at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO_USERS.member);
  await page.goto('/demo');
  await expect(page.getByRole('heading', { name: 'Create a demo' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a client opens light-themed demos on a phone, and the creator opens the preview page', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, DEMO_USERS.admin);
  const builds = (await (await page.request.get('/api/builds')).json()) as { builds: { buildId: string }[] };
  const buildId = builds.builds[0]?.buildId as string;
  const settings = {
    theme: 'light',
    backgroundSettings: { backgroundColor: '#f8fafc', titleColor: '#0f172a', showRequestCounter: true },
    clientMessage: { enabled: true, header: 'Hello Harbor team', body: 'Try asking about appointments.' },
  };
  const ids: Record<string, string> = {};
  for (const type of ['sms', 'facebook', 'instagram', 'standard', 'website']) {
    const response = await page.request.post('/api/demos', {
      data: { name: `Light ${type}`, type, buildId, settings: { ...settings, widgetTemplate: 'legacy' } },
    });
    expect(response.status()).toBe(201);
    ids[type] = ((await response.json()) as { demoId: string }).demoId;
  }

  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const client = await phone.newPage();
  for (const [type, id] of Object.entries(ids)) {
    await client.goto(`/shared/${id}`);
    await expect(client.getByTestId('request-counter')).toHaveText('0 / 100 requests used');
    await expect(client.getByRole('complementary', { name: 'Message from the demo creator' })).toContainText(
      'Hello Harbor team',
    );
    const overflow = await client.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${type} fits a phone`).toBeLessThanOrEqual(0);
    await checkAccessible(client);
  }
  await client.getByRole('button', { name: 'Dismiss message' }).first().click();
  await expect(client.getByRole('complementary', { name: 'Message from the demo creator' })).toHaveCount(0);
  await phone.close();

  await page.goto(`/demo/${ids.sms}/preview`);
  await expect(page.getByTestId('iphone-frame')).toBeVisible();
  await expect(page.getByText('Hello Harbor team')).toBeVisible();
});
