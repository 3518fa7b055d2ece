import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, signIn } from './support';

/**
 * An agency resells credits and changes plan: a client over its monthly allowance stops while
 * another goes on; a downgrade to Starter locks sub-accounts, and the lock shows everywhere.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers of the API, read as the test needs them
const json = async (response: Awaited<ReturnType<Page['request']['post']>>): Promise<any> => {
  expect(response.status(), await response.text()).toBeLessThan(300);
  return response.json();
};

/** An agent with a deployed website widget in the sub-account, made through the API. */
const widgetIn = async (page: Page, subaccountId: string) => {
  const headers = { 'x-subaccount-id': subaccountId };
  const agent = await json(await page.request.post('/api/agents', { headers, data: { name: 'Front desk' } }));
  const connection = await json(
    await page.request.post('/api/connections', {
      headers,
      data: { subaccountId, buildId: agent.id, type: 'website-widget' },
    }),
  );
  return connection.widgetId as string;
};

const visitorChat = (page: Page, widgetId: string) =>
  page.request.post(`/api/widget/${widgetId}/chat`, {
    data: { contactIdentifier: 'visitor_1', message: 'Hello, are you open today?' },
  });

test('a client over its allowance stops while another goes on; a downgrade locks a sub-account everywhere', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, `locks-${Date.now()}@example.test`);

  // The agency pays for Growth (5 sub-accounts) on the sandbox and adds a client.
  const started = await json(
    await page.request.post('/api/stripe/create-checkout', { data: { priceId: 'sb_growth_month_3000' } }),
  );
  const checkoutId = String(started.url).split('/billing/sandbox/')[1];
  await json(
    await page.request.post(`/api/billing/sandbox/checkouts/${checkoutId}/complete`, { data: { outcome: 'pay' } }),
  );
  const { accounts } = await json(await page.request.get('/api/accounts'));
  const accountId = accounts[0].id as string;
  const mainId = accounts[0].subaccounts[0].id as string;
  const client = await json(
    await page.request.post('/api/subaccounts', { data: { accountId, name: 'Harbor Dental' } }),
  );
  const mainWidget = await widgetIn(page, mainId);
  const clientWidget = await widgetIn(page, client.id);

  // Credits per client: a tiny allowance for Harbor Dental, none for the agency's own workspace.
  await page.goto('/usage');
  const perClient = page.getByRole('region', { name: 'Credits per client' });
  await expect(perClient.getByRole('rowheader', { name: 'Harbor Dental' })).toBeVisible();
  await perClient.getByLabel('Monthly credit allowance for Harbor Dental').fill('0.001');
  await perClient
    .getByRole('row', { name: /Harbor Dental/ })
    .getByRole('button', { name: 'Save' })
    .click();
  await expect(page.getByText('Harbor Dental: allowance saved')).toBeVisible();
  await expectAccessible(page);

  // Harbor Dental's visitors read a neutral sentence; the agency's own widget goes on.
  const stopped = await visitorChat(page, clientWidget);
  expect(stopped.status()).toBe(402);
  expect((await stopped.json()).error.message).toBe('This assistant is unavailable right now');
  expect((await visitorChat(page, mainWidget)).status()).toBe(200);

  // Usage per client, aggregated by the server, as a chart, a table and a CSV file. Metering is
  // written within a second of the call; each reload is given the time a loaded machine takes to
  // draw the page.
  const breakdown = page.getByRole('region', { name: 'Usage breakdown table' });
  await expect(async () => {
    await page.reload();
    await expect(breakdown.getByRole('rowheader', { name: accounts[0].subaccounts[0].name })).toBeVisible({
      timeout: 5000,
    });
  }).toPass({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^usage-by-subaccount-.*\.csv$/);

  // The allowance is removed; then the agency moves to Starter (1 sub-account).
  await perClient.getByLabel('Monthly credit allowance for Harbor Dental').fill('');
  await perClient
    .getByRole('row', { name: /Harbor Dental/ })
    .getByRole('button', { name: 'Save' })
    .click();
  await expect(page.getByText('Harbor Dental: no monthly limit')).toBeVisible();
  expect((await visitorChat(page, clientWidget)).status()).toBe(200);
  await json(await page.request.post('/stripe/schedule-downgrade', { data: { newPriceId: 'sb_starter_month_500' } }));
  await json(await page.request.post('/api/billing/sandbox/renew'));

  // 'Select Your Active Subaccount': the agency keeps its own workspace.
  await page.goto('/usage');
  const selection = page.getByRole('dialog', { name: 'Select Your Active Subaccount' });
  await expect(selection).toBeVisible();
  await selection.getByRole('radio', { name: new RegExp(accounts[0].subaccounts[0].name) }).click();
  await selection.getByRole('button', { name: 'Continue' }).click();
  await selection.getByLabel("Type 'confirm' to lock the other sub-accounts").fill('confirm');
  await selection.getByRole('button', { name: 'Lock Selection' }).click();
  await expect(page.getByText('Subaccount selected successfully')).toBeVisible();

  // Locked everywhere: the switcher, the client's pages, its writes and its visitors.
  await page.goto('/agents');
  await page.getByRole('button', { name: /Switch account/ }).click();
  const lockedItem = page.getByRole('menuitem', { name: /Harbor Dental/ });
  await expect(lockedItem).toContainText('Locked');
  await lockedItem.click();
  const explanation = page.getByRole('dialog', { name: 'Harbor Dental is locked' });
  await expect(explanation.getByRole('link', { name: 'Upgrade to Unlock' })).toBeVisible();
  await expectAccessible(page);
  await explanation.getByRole('link', { name: 'Upgrade to Unlock' }).click();
  await expect(page).toHaveURL(/\/pricing\?unlock=subaccounts$/);
  await expect(page.getByRole('heading', { name: 'Simple, transparent pricing' })).toBeVisible();
  await expect(page.getByText('Growth unlocks more active sub-accounts. It is highlighted below.')).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'Growth' }).getByText('Unlocks more active sub-accounts'),
  ).toBeVisible();

  await page.goto(`/${client.id}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Harbor Dental is locked' })).toBeVisible();
  const write = await page.request.post('/api/agents', {
    headers: { 'x-subaccount-id': client.id },
    data: { name: 'Sneaky' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).error.reason).toBe('subaccount_locked');
  const visitor = await visitorChat(page, clientWidget);
  expect(visitor.status()).toBe(403);
  expect((await visitor.json()).error.message).toBe('This assistant is unavailable right now');
  expect((await visitorChat(page, mainWidget)).status()).toBe(200);

  // At 390 px the explanation still fits.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/${client.id}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Harbor Dental is locked' })).toBeVisible();
  await expectAccessible(page);
});
