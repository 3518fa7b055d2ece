import { headerTitleFor, WORKSPACE_MAIN_ITEMS, WORKSPACE_RESOURCE_ITEMS } from '@switchboard/core';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

test('a new visitor signs in from the landing page and lands on New Agent', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('AI agents');
  for (const anchor of ['Integrations', 'Pricing', 'FAQ', 'Community']) {
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: anchor })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Get started' }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await dialog.getByRole('button', { name: 'Continue with Email' }).click();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await page.keyboard.press('Escape');

  const email = `new.agency.${Date.now()}@example.com`;
  await signIn(page, email);
  await expect(page).toHaveURL(/\/agents\/create$/);
});

test('a signed-in admin uses every sidebar item, switches sub-account and keeps the theme after a reload', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.admin);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  for (const item of [...WORKSPACE_MAIN_ITEMS, ...WORKSPACE_RESOURCE_ITEMS]) {
    await sidebar.hover();
    await sidebar.getByRole('link', { name: item.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${item.path}$`));
    await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText(headerTitleFor(item.path));
    await expect(sidebar.getByRole('link', { name: item.label, exact: true })).toHaveAttribute('aria-current', 'page');
  }

  await sidebar.hover();
  await sidebar.getByRole('button', { name: /Switch account/ }).click();
  await page.getByRole('menuitem', { name: /Harbor Dental/ }).click();
  await expect(page).toHaveURL(/\/sub_[a-z0-9]+\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Harbor Dental' })).toBeVisible();
  const subaccountId = new URL(page.url()).pathname.split('/')[1];

  const accountNav = page.getByRole('navigation', { name: 'Account' });
  await accountNav.getByRole('link', { name: 'SMS Agent' }).click();
  await expect(page).toHaveURL(/\/sms\/campaigns$/);
  await expect(page.getByRole('navigation', { name: 'Account' })).toHaveCount(0);
  await page.goBack();
  for (const label of ['WhatsApp Agent', 'Instagram Agent', 'Website Widget', 'Website Block', 'Team', 'Settings']) {
    await accountNav.getByRole('link', { name: label }).click();
    await expect(accountNav.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
  }
  await page.getByRole('link', { name: 'Add agent' }).click();
  await expect(page).toHaveURL(/\/add-agent$/);

  await page.goto(`/subaccounts/${subaccountId}/agents`);
  const html = page.locator('html');
  await page.getByRole('complementary', { name: 'Sidebar' }).hover();
  await page.getByRole('button', { name: 'My Account' }).click();
  // The menu offers the other theme than the one the account has saved (an earlier journey may have changed it).
  const toggle = page.getByRole('menuitem', { name: /^(Light|Dark) mode$/ });
  const wasDark = (await toggle.textContent())?.includes('Light') ?? false;
  await expect(html).toHaveClass(wasDark ? /dark/ : /^(?!.*dark)/);
  await toggle.click();
  await expect(html).toHaveClass(wasDark ? /^(?!.*dark)/ : /dark/);
  await page.waitForLoadState('networkidle');
  await page.reload();
  await expect(html).toHaveClass(wasDark ? /^(?!.*dark)/ : /dark/);
});

test('a member sees no Settings link and a viewer cannot change the theme', async ({ page, browser }) => {
  await signIn(page, DEMO_USERS.member);
  await page.goto('/build');
  const subaccount = await page.evaluate(async () => {
    const response = await fetch('/api/accounts');
    const body = (await response.json()) as { accounts: { subaccounts: { id: string }[] }[] };
    return body.accounts[0]?.subaccounts[0]?.id;
  });
  await page.goto(`/${subaccount}/dashboard`);
  const accountNav = page.getByRole('navigation', { name: 'Account' });
  await expect(accountNav.getByRole('link', { name: 'Team' })).toBeVisible();
  await expect(accountNav.getByRole('link', { name: 'Settings' })).toHaveCount(0);

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signIn(viewer, DEMO_USERS.viewer);
  const status = await viewer.evaluate(async (id) => {
    const response = await fetch(`/api/subaccounts/${id}/theme`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ isDarkMode: false }),
    });
    return response.status;
  }, subaccount);
  expect(status).toBe(403);
  await viewerContext.close();
});

test('the landing page and the workspace pass axe-core', async ({ page }) => {
  await page.goto('/');
  await expectAccessible(page);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/build');
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/build');
  await expectAccessible(page);
});

test('an unknown path shows the Page not found page with status 404, at mobile width too', async ({ page }) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  const response = await page.goto('/definitely-not-a-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go home' })).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/no/such/page/here');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.goto('/pricing'))?.status()).toBe(200);
  expect(cspErrors).toEqual([]);
});

test('the web app, the API reference and the pages run under the Content-Security-Policy', async ({ page }) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  const landing = await page.goto('/');
  expect(landing?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(landing?.headers()['x-content-type-options']).toBe('nosniff');
  await signIn(page, DEMO_USERS.admin);
  for (const path of ['/agents', '/usage', '/demo', '/new-evaluation']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  await page.goto('/api/docs');
  await expect(page.getByText('Switchboard API').first()).toBeVisible();
  // The bearer API key scheme: Authorize takes a platform key.
  await page.getByRole('button', { name: 'Authorize' }).first().click();
  await expect(page.getByText('bearerAuth').first()).toBeVisible();
  expect(cspErrors).toEqual([]);
});
