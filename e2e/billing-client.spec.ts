import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

/**
 * A client's login: the agency invites a person to one of its clients (Harbor Dental). That person
 * sees Harbor Dental's usage and allowance and nothing of the agency's money or its other client
 * (Sunrise Solar): no balance or plan, no Buy credits, Manage plan, Cancel, promo codes, invoices
 * or card, and a pricing page that says the agency buys. Phone width, both themes, axe-clean.
 */

const accessibleInBothThemes = async (page: Page) => {
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [!wasDark, wasDark]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await expectAccessible(page);
  }
};

test("a client's login sees its own usage and allowance, and none of the agency's billing", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const client = `client-${Date.now()}@example.test`;

  // The agency invites the client's person to Harbor Dental only, and gives Harbor Dental an allowance.
  await signIn(page, DEMO_USERS.admin);
  const harbor = await subaccountIdOf(page, 'Harbor Dental');
  await page.goto(`/${harbor}/team`);
  await page.getByPlaceholder('teammate@agency.com').fill(client);
  await page.getByLabel('Role', { exact: true }).selectOption('member');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`${client} · invitation pending`)).toBeVisible();
  await page.goto('/usage');
  const perClient = page.getByRole('region', { name: 'Credits per client' });
  await perClient.getByLabel('Monthly credit allowance for Harbor Dental').fill('50000');
  await perClient
    .getByRole('row', { name: /Harbor Dental/ })
    .getByRole('button', { name: 'Save' })
    .click();
  await expect(page.getByText('Harbor Dental: allowance saved')).toBeVisible();

  // The client signs in and opens Usage.
  const context = await browser.newContext();
  const person = await context.newPage();
  await signIn(person, client);
  await person.goto('/usage');
  await expect(person.getByRole('heading', { name: 'Your usage' })).toBeVisible();
  const allowance = person.getByRole('region', { name: 'Your credit allowance' });
  await expect(allowance.getByRole('rowheader', { name: 'Harbor Dental' })).toBeVisible();
  await expect(allowance.getByRole('cell', { name: '50,000' })).toBeVisible();
  await expect(allowance.locator('input')).toHaveCount(0);
  await expect(allowance.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(person.getByRole('link', { name: 'Buy credits' })).toHaveCount(0);
  await expect(person.getByRole('button', { name: 'Manage plan' })).toHaveCount(0);
  await expect(person.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  await expect(person.getByRole('heading', { name: 'Credit balance' })).toHaveCount(0);
  await expect(person.getByRole('heading', { name: 'Redeem a promo code' })).toHaveCount(0);
  await expect(person.getByLabel('Group by').getByRole('option', { name: 'Sub-account' })).toHaveCount(1);
  await expect(person.getByText('Sunrise Solar')).toHaveCount(0);

  // Settings says who manages billing and shows no plan, card or invoices.
  await person.goto('/settings');
  const billing = person.getByRole('region', { name: 'Billing' });
  await expect(billing.getByText('are managed by its owner or an admin of all its sub-accounts')).toBeVisible();
  await expect(billing.getByRole('heading', { name: 'Invoices' })).toHaveCount(0);
  await expect(billing.getByText('Payment method', { exact: true })).toHaveCount(0);
  await expect(person.getByRole('button', { name: /Manage billing/ })).toHaveCount(0);

  // The pricing page says the agency buys; its plan buttons are off for the client.
  await person.goto('/pricing');
  await expect(
    person.getByText('plan and credits are bought by its owner or an admin of all its sub-accounts'),
  ).toBeVisible();

  // Phone width, both themes.
  await person.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/usage', '/settings']) {
    await person.goto(path);
    await expect(
      person.getByRole('heading', { name: path === '/usage' ? 'Usage' : 'Settings', exact: true }),
    ).toBeVisible();
    expect(await person.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await accessibleInBothThemes(person);
  }
  await context.close();
});
