import { expect, test } from './fixtures';
import { expectAccessible, signIn } from './support';

/** The plan, checkout and credits journey on the sandbox payment provider. */
test('pricing, sandbox checkout, upgrade with matching preview, downgrade, promo code and usage log', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = `billing-${Date.now()}@example.test`;

  // Pricing as a visitor.
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeVisible();
  await expect(page.getByText('Most Popular')).toBeVisible();
  await page.getByRole('button', { name: /Annually/ }).click();
  const starterCard = page.getByRole('article', { name: 'Starter', exact: true });
  await expect(starterCard.getByText('Billed yearly ($180)')).toBeVisible();
  await expect(starterCard.getByText('$15', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Talk to Sales' })).toBeVisible();
  await expectAccessible(page);

  // Discount mode: the discount page sells Starter at 0.75, the secret page the lifetime plan at 0.75.
  await page.goto('/pricing/discount');
  const discounted = page.getByRole('article', { name: 'Starter', exact: true });
  await expect(discounted.getByText('$18.75', { exact: true })).toBeVisible();
  await expect(discounted.getByText('$25', { exact: true })).toBeVisible();
  await expect(discounted.getByText('25% off')).toBeVisible();
  await expect(discounted.getByText('1,000 bonus credits FOREVER')).toBeVisible();
  await expect(page.getByRole('button', { name: /Annually/ })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Growth' }).getByText('$79', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/pricing/secret');
  const lifetime = page.getByRole('article', { name: 'Mentoring + Lifetime' });
  await expect(lifetime.getByText('$7,000', { exact: true })).toBeVisible();
  await expect(lifetime.getByText('one-time', { exact: true })).toBeVisible();
  await expect(lifetime.getByText('25% off the $9,333.33 list price')).toBeVisible();

  // Sign in as a new user: every account starts on the free plan.
  await signIn(page, email);
  await page.goto('/usage');
  await expect(page.getByText('Plan:')).toContainText('Free');
  await expect(page.getByText('Remaining credits').locator('..')).toContainText('100');

  // Bad input changes nothing and gets the spec's messages.
  const unknown = await page.request.post('/api/stripe/create-checkout', { data: { priceId: 'price_unknown' } });
  expect(unknown.status()).toBe(422);
  expect((await unknown.json()).error.code).toBe('BILLING_INVALID_PLAN');
  const noTier = await page.request.post('/api/stripe/upgrade-subscription', { data: { newPriceId: '' } });
  expect((await noTier.json()).error.message).toBe('Invalid plan selection - missing price ID. Please try again.');
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('Promo code is required')).toBeVisible();

  // Checkout on the sandbox: Starter 500 credits.
  await page.goto('/pricing');
  const starter = page.getByRole('article', { name: 'Starter', exact: true });
  const popupPromise = page.context().waitForEvent('page');
  await starter.getByRole('button', { name: 'Subscribe' }).click();
  const checkout = await popupPromise;
  await expect(checkout.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await expectAccessible(checkout);
  await checkout.getByRole('button', { name: 'Pay now' }).click();
  await checkout.waitForURL('**/success**');
  await expect(checkout.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await checkout.close();

  // Credits appear.
  await page.goto('/usage');
  await expect(page.getByText('Plan:')).toContainText('Starter 500 credits');
  await expect(page.getByText('Remaining credits').locator('..')).toContainText('500');

  // Upgrade to Growth: the preview's total is what is charged.
  await page.getByRole('button', { name: 'Manage plan' }).click();
  const modal = page.getByRole('dialog', { name: 'Manage your plan' });
  await expect(modal.getByText('Step 1 of 2')).toBeVisible();
  await modal.getByRole('article', { name: 'Growth' }).getByRole('button', { name: 'Subscribe' }).click();
  await expect(modal.getByText('Step 2 of 2')).toBeVisible();
  const preview = modal.getByRole('definition').filter({ hasText: '$' });
  const totalRow = modal.getByText('Total due now').locator('..');
  await expect(totalRow).toContainText('$');
  const total = (await totalRow.locator('dd').textContent())?.trim() ?? '';
  expect(total).toMatch(/^\$\d+\.\d{2}$/);
  await expect(preview.first()).toBeVisible();
  await modal.getByRole('button', { name: 'Confirm change' }).click();
  await expect(modal.getByText('Plan updated')).toBeVisible();
  await expect(modal.getByText(`We charged ${total} immediately.`)).toBeVisible();
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Plan:')).toContainText('Growth 3,000 credits');

  // Downgrade to Starter is scheduled for the period end, then cancelled.
  await page.getByRole('button', { name: 'Manage plan' }).click();
  await modal.getByRole('article', { name: 'Starter', exact: true }).getByRole('button', { name: 'Subscribe' }).click();
  await expect(modal.getByText('You will lose:')).toBeVisible();
  await modal.getByRole('button', { name: 'Schedule downgrade' }).click();
  await expect(modal.getByText('Downgrade scheduled')).toBeVisible();
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(/Downgrade to Starter 500 credits scheduled for/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel downgrade' }).click();
  await expect(page.getByText('Downgrade cancelled')).toBeVisible();
  await expect(page.getByText(/Downgrade to Starter 500 credits scheduled for/)).toHaveCount(0);

  // Promo code.
  await page.getByLabel('Promo code').fill('welcome100');
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('Promo code redeemed')).toBeVisible();
  await expect(page.getByText('Bonus credits').locator('..')).toContainText('100');

  // A chat spends credits and shows in the usage log.
  const agent = await page.request.post('/api/agents', { data: { name: 'Billing bot' } });
  expect(agent.status()).toBe(201);
  const { id } = await agent.json();
  const chat = await page.request.post(`/api/agents/${id}/chat`, { data: { message: 'Hello there' } });
  expect(chat.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Usage logs' }).getByRole('row')).not.toHaveCount(1);
  await expectAccessible(page);

  // Mobile width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Simple Pricing' })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/usage');
  await expect(page.getByRole('heading', { name: 'Usage', exact: true })).toBeVisible();
  await expectAccessible(page);
  // Light theme as well.
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
  await page.goto('/pricing');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
});
