import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, signIn } from './support';

/** Pays the sandbox checkout that the click opens in a new tab; answers that tab after payment. */
const payInSandbox = async (page: Page, click: () => Promise<void>, landing: string) => {
  const popupPromise = page.context().waitForEvent('page');
  await click();
  const checkout = await popupPromise;
  await expect(checkout.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await checkout.getByRole('button', { name: 'Pay now' }).click();
  await checkout.waitForURL(landing);
  return checkout;
};

const accessibleInBothThemes = async (page: Page) => {
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [!wasDark, wasDark]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await expectAccessible(page);
  }
};

test('Settings, Billing on the sandbox: plan, renewal, invoices, a credit pack, alerts, cancel and resume', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = `billing-settings-${Date.now()}@example.test`;
  await signIn(page, email);

  // Free plan first: no invoices, the sandbox said.
  await page.goto('/settings');
  const billing = page.getByRole('region', { name: 'Billing' });
  await expect(billing.getByText('Sandbox payments: this server takes no real payments.')).toBeVisible();
  await expect(billing.getByText('Current plan').locator('xpath=following-sibling::dd[1]')).toHaveText('Free');
  await expect(billing.getByText('No invoices yet.')).toBeVisible();

  // Subscribe to Starter on the pricing page.
  await page.goto('/pricing');
  const starter = page.getByRole('article', { name: 'Starter', exact: true });
  const paid = await payInSandbox(
    page,
    () => starter.getByRole('button', { name: 'Subscribe' }).click(),
    '**/success**',
  );
  await paid.close();

  // Plan, renewal date, sandbox card and the invoice.
  await page.goto('/settings');
  await expect(billing.getByText('Current plan').locator('xpath=following-sibling::dd[1]')).toHaveText(
    'Starter 500 credits',
  );
  const renewal = billing.getByText('Renews on').locator('xpath=following-sibling::dd[1]');
  await expect(renewal).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  const renewalDate = (await renewal.textContent()) ?? '';
  await expect(billing.getByText('Sandbox test card ending 4242 (no real card)')).toBeVisible();
  const invoices = billing.getByRole('table', { name: 'Invoices, newest first' });
  await expect(invoices.getByRole('row').nth(1)).toContainText('Starter 500 credits');
  await expect(invoices.getByRole('row').nth(1)).toContainText('$25.00');
  await expect(invoices.getByRole('row').nth(1)).toContainText('Paid');
  await expect(billing.getByText('Balance: 500 credits')).toBeVisible();
  await accessibleInBothThemes(page);

  // A one-time credit pack: the balance rises.
  const pack = await payInSandbox(
    page,
    () => billing.getByRole('button', { name: 'Buy 500 credits for $25' }).click(),
    '**/settings?purchase=success',
  );
  await expect(pack.getByText('Payment received: the credits are added to your balance.')).toBeVisible();
  await expect(pack.getByText('Balance: 1,000 credits')).toBeVisible();
  await pack.close();
  await page.reload();
  await expect(billing.getByText('Balance: 1,000 credits')).toBeVisible();
  await expect(invoices.getByRole('row').nth(1)).toContainText('500 credits pack');

  // Low-balance alerts: a bad value is named, then 20% and 5%.
  const thresholds = billing.getByLabel("Thresholds (% of the period's credits, comma-separated)");
  await thresholds.fill('150');
  await billing.getByRole('button', { name: 'Save alerts' }).click();
  await expect(billing.getByText('Use a percentage from 1 to 99')).toBeVisible();
  await thresholds.fill('20, 5');
  await billing.getByRole('button', { name: 'Save alerts' }).click();
  await expect(billing.getByText('Alerts at 20% (100 credits) and 5% (25 credits).')).toBeVisible();

  // Auto-recharge, labelled as simulated on the sandbox.
  await expect(billing.getByText('Sandbox: recharges are simulated and no card is charged.')).toBeVisible();
  await billing.getByLabel('Recharge automatically').check();
  await billing.getByLabel('When the balance falls below (credits)').fill('50');
  await billing.getByRole('button', { name: 'Save auto-recharge' }).click();
  await expect(page.getByText('Auto-recharge is on')).toBeVisible();

  // Cancel at the period end: the confirmation states the exact end date; then resume.
  await billing.getByRole('button', { name: 'Cancel subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
  await expect(confirm).toContainText(`Your subscription ends on ${renewalDate}.`);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: `Cancel on ${renewalDate}` }).click();
  await expect(confirm).toBeHidden();
  await expect(billing.getByText('Ends on').locator('xpath=following-sibling::dd[1]')).toHaveText(renewalDate);
  await expect(billing.getByText(`Your subscription is cancelled and ends on ${renewalDate}.`)).toBeVisible();
  await billing.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(billing.getByText('Renews on').locator('xpath=following-sibling::dd[1]')).toHaveText(renewalDate);

  // Manage billing opens the sandbox's own portal page, clearly labelled, and comes back.
  await billing.getByRole('button', { name: 'Manage billing (sandbox)' }).click();
  await expect(page.getByRole('heading', { name: 'Billing portal (sandbox)' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Return to Switchboard' }).click();
  await page.waitForURL('**/settings');
  await expect(billing).toBeVisible();

  // Mobile width, both themes.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(billing.getByText('Balance: 1,000 credits')).toBeVisible();
  await accessibleInBothThemes(page);

  // The Usage page's Buy credits opens the Billing section.
  await page.goto('/usage');
  await page.getByRole('link', { name: 'Buy credits' }).click();
  await page.waitForURL('**/settings#billing');
  await expect(billing.getByRole('heading', { name: 'Billing' })).toBeInViewport();

  // 'Upgrade to Unlock' lands on the pricing page with the plan that unlocks the feature highlighted.
  await page.goto('/pricing?unlock=advanced_demos');
  await expect(page.getByText('Growth unlocks advanced demos. It is highlighted below.')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Growth' }).getByText('Unlocks advanced demos')).toBeVisible();
  await accessibleInBothThemes(page);
});
