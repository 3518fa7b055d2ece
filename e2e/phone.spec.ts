import type { Locator, Page } from '@playwright/test';
import { headerTitleFor, WORKSPACE_MAIN_ITEMS, WORKSPACE_RESOURCE_ITEMS } from '@switchboard/core';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

const PHONE = { width: 390, height: 844 };

const fitsWidth = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

const inViewport = async (page: Page, locator: Locator) => {
  const box = await locator.boundingBox();
  const size = page.viewportSize() ?? PHONE;
  expect(box, 'visible').not.toBeNull();
  if (!box) return;
  expect(box.y + box.height, 'above the fold').toBeLessThanOrEqual(size.height + 1);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
};

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('at 390 px every workspace page reaches every other', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, DEMO_USERS.admin);
  const bar = page.getByRole('navigation', { name: 'Quick navigation' });
  await expect(bar).toBeVisible();
  await expectAccessible(page);

  // The main items from the bottom bar, on /agents/create and /agents too.
  for (const item of WORKSPACE_MAIN_ITEMS) {
    await bar.getByRole('link', { name: item.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${item.path}$`));
    await expect(bar.getByRole('link', { name: item.label, exact: true })).toHaveAttribute('aria-current', 'page');
    await fitsWidth(page);
  }
  // Everything else from More, which opens the drawer, from an agents page as well.
  await bar.getByRole('link', { name: 'Agents', exact: true }).click();
  for (const item of WORKSPACE_RESOURCE_ITEMS) {
    await bar.getByRole('button', { name: 'More' }).click();
    const drawer = page.getByRole('complementary', { name: 'Sidebar' });
    const resources = drawer.getByRole('button', { name: 'Resources' });
    if ((await resources.getAttribute('aria-expanded')) === 'false') await resources.click();
    await drawer.getByRole('link', { name: item.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${item.path}$`));
    await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText(headerTitleFor(item.path));
    await fitsWidth(page);
  }
  // An agent's own page keeps the bar, and the connection area is reached through the account switcher.
  await bar.getByRole('link', { name: 'Agents', exact: true }).click();
  // Whichever sub-account an earlier journey left current: its first agent.
  await page
    .getByRole('link', { name: /^Open / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/agents\/agt_/);
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'More' }).click();
  await page.getByRole('button', { name: /Switch account/ }).click();
  await page.getByRole('menuitem', { name: /Sunrise Solar/ }).click();
  await expect(page).toHaveURL(/\/sub_[a-z0-9]+\/dashboard$/);
  for (const label of ['Website Widget', 'Team', 'Settings']) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('complementary', { name: 'Sidebar menu' }).getByRole('link', { name: label }).click();
    await fitsWidth(page);
  }
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Back to workspace' }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(bar).toBeVisible();
});

test('demos keep their note clear of the chat, the badge and the fold', async ({ page, browser, baseURL }) => {
  await signIn(page, DEMO_USERS.admin);
  const builds = (await (await page.request.get('/api/builds')).json()) as { builds: { buildId: string }[] };
  const buildId = builds.builds[0]?.buildId as string;
  const ids: Record<string, string> = {};
  for (const type of ['standard', 'sms', 'website']) {
    const response = await page.request.post('/api/demos', {
      data: {
        name: `Layout ${type}`,
        type,
        buildId,
        settings: {
          widgetTemplate: 'legacy',
          showWelcomeMessage: true,
          welcomeMessage: 'Hello! Ask me anything about our clinic, our prices or our opening hours.',
          platformSettings: { autoOpen: true },
          backgroundSettings: { showRequestCounter: true, counterPosition: 'top-right' },
          clientMessage: { enabled: true, position: 'right', header: 'Hello team', body: 'Try asking about prices.' },
        },
      },
    });
    expect(response.status()).toBe(201);
    ids[type] = ((await response.json()) as { demoId: string }).demoId;
  }

  // 1280 px: the note stands beside the standard chat, not over its bubbles.
  await page.goto(`/shared/${ids.standard}`);
  const card = page.getByRole('complementary', { name: 'Message from the demo creator' });
  const bubble = page.getByTestId('demo-bot-message').first();
  await expect(bubble).toBeVisible();
  const chatBox = await page.getByPlaceholder(/Type/).first().boundingBox();
  const cardBox = await card.boundingBox();
  const bubbleBox = await bubble.boundingBox();
  expect(cardBox && bubbleBox && overlaps(cardBox, bubbleBox)).toBe(false);
  expect(cardBox && chatBox && overlaps(cardBox, chatBox)).toBe(false);

  const phone = await browser.newContext({ baseURL, viewport: PHONE });
  const client = await phone.newPage();
  for (const type of ['standard', 'sms', 'website']) {
    await client.goto(`/shared/${ids[type]}`);
    const input = client.getByRole('textbox').first();
    await expect(input).toBeVisible();
    await inViewport(client, input);
    const badge = await client.getByTestId('request-counter').boundingBox();
    const close = await client.getByRole('button', { name: 'Dismiss message' }).boundingBox();
    expect(badge && close && overlaps(badge, close), `${type}: badge over the note's close`).toBe(false);
    await fitsWidth(client);
  }
  await phone.close();
});

test('the designer preview shows the whole widget with a top placement, and the embed code is not cut off', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.admin);
  const response = await page.request.get('/api/accounts');
  const { accounts } = (await response.json()) as { accounts: { subaccounts: { id: string; name: string }[] }[] };
  const subaccountId = accounts[0]?.subaccounts.find((item) => item.name === 'Harbor Dental')?.id as string;
  await page.goto(`/${subaccountId}/add-agent`);
  await page.getByRole('button', { name: 'Add agent', exact: true }).last().click();
  await page.getByLabel('Agent', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('radio', { name: /Website Widget/ }).check();
  await page.getByRole('button', { name: 'Add agent', exact: true }).last().click();
  await page.waitForURL(/\/con_[a-z0-9]+\/website-widget$/);

  await page.getByRole('radio', { name: 'Top right' }).click();
  await page.getByLabel('Height').fill('700');
  await page.getByRole('button', { name: 'Apply size' }).click();
  const preview = page.locator('section[aria-label="Live Preview"]');
  await preview.getByRole('button', { name: 'Open preview' }).click();
  const widget = preview.getByRole('region', { name: 'Widget preview' });
  const input = preview.getByRole('textbox', { name: 'Preview message' });
  const area = await preview.boundingBox();
  const widgetBox = await widget.boundingBox();
  const inputBox = await input.boundingBox();
  expect(widgetBox?.height).toBeGreaterThanOrEqual(699);
  expect(area && inputBox && inputBox.y + inputBox.height <= area.y + area.height).toBe(true);

  await page.setViewportSize(PHONE);
  const code = page.getByRole('textbox', { name: 'Embed code' });
  await code.scrollIntoViewIfNeeded();
  const fits = await code.evaluate((element) => element.scrollHeight <= element.clientHeight + 1);
  expect(fits).toBe(true);
  await fitsWidth(page);
});
