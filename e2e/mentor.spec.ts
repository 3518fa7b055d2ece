import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

const IDEA = 'A friendly assistant for Bright Bikes in Bristol that answers questions about repairs';

const bothThemes = async (page: Page) => {
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [!wasDark, wasDark]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await expectAccessible(page);
  }
};

test('an agency applies a mentor suggestion and sees the agent change', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);

  // An agent whose greeting was removed.
  await page.getByLabel('Your agent idea').fill(IDEA);
  // An earlier journey may have added a provider; this one works with the offline model.
  await page.getByLabel('Model that writes the draft').selectOption('offline::offline');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);
  const agentUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('textbox', { name: 'First message', exact: true })).not.toHaveValue('');
  const name = (await page.locator('main h1').textContent())?.trim() ?? '';
  expect(name).not.toBe('');
  await page.getByRole('textbox', { name: 'First message', exact: true }).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Agent saved')).toBeVisible();

  // The AI Mentor from the sidebar.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.hover();
  await sidebar.getByRole('link', { name: 'AI Mentor', exact: true }).click();
  await expect(page).toHaveURL(/\/aimentor$/);
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('AI Mentor');
  await page.mouse.move(900, 400);

  const agentOption = page.getByLabel('Agent', { exact: true }).locator('option', { hasText: name }).first();
  await page.getByLabel('Agent', { exact: true }).selectOption((await agentOption.getAttribute('value')) ?? '');
  await page.getByLabel('Model that reviews').selectOption('offline::offline');
  await expect(page.getByText('This agent has not been reviewed yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Review agent' }).click();

  await expect(page.getByRole('heading', { name: `Review of ${name}` })).toBeVisible();
  await expect(page.getByText('Reviewed by the offline model')).toBeVisible();
  const card = page.getByRole('article', { name: 'Add a first message' });
  await expect(card).toBeVisible();
  const added = card.locator('[data-diff="added"]');
  await expect(added).toHaveCount(1);
  await expect(added).toContainText(`Hi! I'm ${name}. How can I help you today?`);
  await expect(added).toContainText('+');
  await expect(card.locator('ins')).toContainText('Added:');
  await bothThemes(page);

  await card.getByRole('button', { name: 'Apply' }).click();
  await expect(card.getByText('Applied', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Apply' })).toHaveCount(0);

  // A reload keeps the review and what was applied.
  await page.reload();
  await expect(
    page.getByRole('article', { name: 'Add a first message' }).getByText('Applied', { exact: true }),
  ).toBeVisible();

  // The agent has changed.
  await page
    .getByRole('article', { name: 'Add a first message' })
    .getByRole('link', { name: 'Open the agent' })
    .click();
  await expect(page).toHaveURL(new RegExp(`${agentUrl}$`));
  await expect(page.getByRole('textbox', { name: 'First message', exact: true })).toHaveValue(
    `Hi! I'm ${name}. How can I help you today?`,
  );

  // At phone width, in both themes.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goBack();
  await expect(page.getByRole('heading', { name: `Review of ${name}` })).toBeVisible();
  await bothThemes(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  expect(overflow).toBe(false);
});
