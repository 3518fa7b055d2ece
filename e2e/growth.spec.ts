import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

test('a user finds a help article, sends a support ticket and sees it listed with its status', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/support');
  await expect(page.getByRole('heading', { name: 'Support Center' })).toBeVisible();
  await page.getByLabel('Search help articles').fill('deploy widget');
  await page.getByRole('button', { name: /Website widget/ }).click();
  await expect(page.getByRole('article')).toContainText('Press Deploy');
  await page.getByLabel('Search help articles').fill('zzzz-nothing');
  await expect(page.getByText('No article matches')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Send ticket' }).click();
  await expect(page.getByText('Please enter a subject')).toBeVisible();
  await page.getByLabel('Topic').selectOption('problem');
  await page.getByLabel('Subject').fill('Widget missing on the client site');
  await page.getByLabel('Message').fill('After deploying, the Sunrise Solar widget does not show on their site.');
  await page.getByRole('button', { name: 'Send ticket' }).click();
  const ticket = page.getByRole('listitem').filter({ hasText: 'Widget missing on the client site' });
  await expect(ticket).toContainText('Open');
  await expect(ticket).toContainText('Something does not work');

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
});

test('video guides show the written guide without videos; the rank shows in the account card and on the profile', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/howitworks');
  await expect(page.getByRole('heading', { name: 'Video Guides' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Test before going live' })).toBeVisible();
  await page.getByText('Read the written guide').first().click();
  await expect(page.getByText('Open New Agent')).toBeVisible();
  await expectAccessible(page);

  await page.goto('/profile');
  await expect(page.getByRole('main').getByText(/^Level \d · /)).toBeVisible();
  await expect(page.getByText(/more points to reach Level \d/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'My Account' })).toContainText(/Level \d/);
  await page.getByLabel('Business name').fill('Demo Agency Ltd');
  await page.getByLabel('Your name').fill('Avery Admin');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
});

test('a referral link leads to a paid sandbox checkout and the affiliate sees the commission', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/affiliate');
  await expect(page.getByRole('heading', { name: 'Your referral link' })).toBeVisible();
  const link = await page.getByLabel('Referral link').inputValue();
  expect(link).toMatch(/\/\?ref=[a-z0-9]+$/);
  await expectAccessible(page);

  // A new agency follows the link, signs up and pays on the sandbox.
  const visitorContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(link).pathname + new URL(link).search);
  expect(await visitor.evaluate(() => window.localStorage.getItem('checkout:referralId'))).toContain(
    new URL(link).searchParams.get('ref') as string,
  );
  await signIn(visitor, `referred.${Date.now()}@new-agency.test`);
  await visitor.goto('/pricing');
  const starter = visitor.getByRole('article', { name: 'Starter', exact: true });
  const popupPromise = visitorContext.waitForEvent('page');
  await starter.getByRole('button', { name: 'Subscribe' }).click();
  const checkout = await popupPromise;
  await expect(checkout.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await checkout.getByRole('button', { name: 'Pay now' }).click();
  await checkout.waitForURL('**/success**');
  await visitorContext.close();

  // The affiliate sees the sign-up and a pending commission of 30 % of $25.
  await page.reload();
  const stat = (label: string) => page.locator('dl > div').filter({ hasText: label });
  await expect(stat('Referred sign-ups')).toContainText('1');
  await expect(stat('Pending')).toContainText('$7.50');
  await expect(page.getByRole('table', { name: 'Commission ledger' })).toContainText('$25.00');
  const csv = await page.request.get('/api/affiliate/commissions.csv');
  expect(await csv.text()).toContain(',25.00,0.3,7.50,pending,');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
});

test('a promo code from the landing page is carried through sign-up and applied at checkout', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/?promo=firstmonth69');
  expect(await page.evaluate(() => window.localStorage.getItem('checkout:promoCode'))).toBe('"FIRSTMONTH69"');
  await signIn(page, `promo.${Date.now()}@new-agency.test`);
  await page.goto('/pricing');
  const growth = page.getByRole('article', { name: 'Growth', exact: true });
  const request = page.waitForRequest((req) => req.url().endsWith('/api/stripe/create-checkout'));
  const popupPromise = page.context().waitForEvent('page');
  await growth.getByRole('button', { name: 'Subscribe' }).click();
  expect((await request).postDataJSON()).toMatchObject({ rememberedPromoCode: 'FIRSTMONTH69' });
  const checkout = await popupPromise;
  await expect(checkout.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  // Used once: the next checkout carries no code.
  expect(await page.evaluate(() => window.localStorage.getItem('checkout:promoCode'))).toBeNull();
});
