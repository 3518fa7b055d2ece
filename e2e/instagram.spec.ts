import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

const openTab = async (page: Page, name: string) => {
  await page
    .getByRole('navigation', { name: 'Instagram Agent sections' })
    .getByRole('button', { name, exact: true })
    .click();
};

const connectSandbox = async (page: Page, agent: string) => {
  await expect(page.getByRole('heading', { name: 'Instagram Agent', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connect the Instagram Agent' })).toBeVisible();
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: agent });
  await expect(page.getByRole('radio', { name: /^Sandbox/ })).toBeChecked();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Sandbox — no real messages are sent')).toBeVisible();
};

test('an Instagram agent on the sandbox: message the agent, then take over from the inbox', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
  await page.goto(`/${subaccountId}/link3`);
  // The connection sidebar marks the Instagram Agent link.
  await expect(page.getByRole('link', { name: 'Instagram Agent' })).toBeVisible();
  await expectAccessible(page);
  await connectSandbox(page, 'Sunrise Solar Assistant');

  // The Instagram-style sandbox, clearly labelled.
  const phone = page.getByRole('region', { name: 'Instagram sandbox' });
  await expect(phone.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(phone.getByText('Active now')).toBeVisible();
  await page.getByLabel('Writing as (Instagram username)').fill('@ana.visits');
  await expect(page.getByPlaceholder('Message...')).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Do you install solar panels?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const thread = page.getByRole('list', { name: 'Messages with @ana.visits' });
  await expect(thread.getByText('Do you install solar panels?')).toBeVisible();
  // The agent's answer arrives, delivered.
  await expect(thread.locator('li p', { hasText: /^delivered$/ })).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Accounts with messages' }).getByText('@ana.visits')).toBeVisible();
  await expectAccessible(page);

  // A person takes over in the inbox; the reply reaches the Instagram chat.
  await openTab(page, 'Conversations');
  await expect(page.getByRole('list', { name: 'Conversations' }).getByText('ana.visits')).toBeVisible();
  await page.getByRole('button', { name: 'Take over' }).click();
  await expect(page.getByText('A person is answering; the agent stays silent.')).toBeVisible();
  await page.getByLabel('Reply to the visitor').fill('Hi, this is Avery from Sunrise.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    page.getByRole('list', { name: 'Transcript' }).getByText('Hi, this is Avery from Sunrise.'),
  ).toBeVisible();
  await expectAccessible(page);

  // The customer writes again: only the person's reply is there, the agent stays silent.
  await openTab(page, 'Sandbox');
  await page.getByLabel('Writing as (Instagram username)').fill('ana.visits');
  await expect(thread.getByText('Hi, this is Avery from Sunrise.')).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Great, thanks Avery!');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(thread.getByText('Great, thanks Avery!')).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(thread.locator('li p', { hasText: /^delivered$/ })).toHaveCount(2);

  // Settings: the Meta webhook values to paste, and the credentials form.
  await openTab(page, 'Settings');
  await expect(page.getByRole('textbox', { name: 'Callback URL' })).toHaveValue(/\/api\/webhooks\/meta\/con_/);
  await expect(page.getByRole('textbox', { name: 'Verify token' })).not.toHaveValue('');
  await expect(page.getByText('This connection uses the sandbox.', { exact: false })).toBeVisible();
  await expectAccessible(page);
});

test('the Instagram Agent page at phone width in the light theme', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Harbor Dental');
  await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: false } });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${subaccountId}/link3`);
  await connectSandbox(page, 'Harbor Dental Receptionist');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.waitForTimeout(500);
  await expectAccessible(page);
  await page.getByLabel('Message', { exact: true }).fill('Can I book a cleaning?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(
    page.getByRole('list', { name: 'Messages with @sandbox.visitor' }).getByText('Can I book a cleaning?'),
  ).toBeVisible();
  for (const tab of ['Conversations', 'Settings', 'Sandbox']) {
    await openTab(page, tab);
    await page.waitForTimeout(300);
    await expectAccessible(page);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});
