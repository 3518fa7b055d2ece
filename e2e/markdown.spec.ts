import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

// The first message is one line; code blocks are covered by the renderer's unit test.
const GREETING =
  '**Welcome!** Run `npm install switchboard`, read [our prices](https://example.com/prices) or [this](javascript:window.__xss=1). <img src=x onerror="window.__xss=1">';

test('replies show as sanitised markdown: bold, code blocks, safe links, no script', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await page
    .getByLabel('Your agent idea')
    .fill('A helpful assistant for Markdown Bakery in York that takes cake orders');
  // An earlier journey may have added a provider; this one drafts with the offline model.
  await page.getByLabel('Model that writes the draft').selectOption('offline::offline');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);

  await page.getByRole('textbox', { name: 'First message', exact: true }).fill(GREETING);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Agent saved')).toBeVisible();
  await page.reload();

  const log = page.getByRole('log');
  await expect(log.locator('strong', { hasText: 'Welcome!' })).toBeVisible();
  await expect(log).not.toContainText('**');
  await expect(log.locator('code')).toHaveText('npm install switchboard');
  const link = log.getByRole('link', { name: 'our prices' });
  await expect(link).toHaveAttribute('href', 'https://example.com/prices');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  // The javascript: link keeps its text but loses its address; the raw HTML is shown as text.
  await expect(log.getByRole('link', { name: 'this', exact: true })).toHaveCount(0);
  await expect(log).toContainText('or this.');
  await expect(log.locator('img')).toHaveCount(0);
  await expect(log).toContainText('<img src=x onerror="window.__xss=1">');
  await log.getByText(/or this\./).click();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expectAccessible(page);
});
