import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { connectSandbox, DEMO_USERS, expectAccessible, ownSubaccount, SEQUENCES_CLINIC, signIn } from './support';

const CLINIC = SEQUENCES_CLINIC;
const CSV = ['Name,Phone,Timezone', 'Rosa Parks,+14155554101,America/Chicago'].join('\n');

const sections = (page: Page, channel: 'SMS' | 'WhatsApp') =>
  page.getByRole('navigation', { name: new RegExp(`${channel} Agent sections`) });

/** Nothing wider than the window, and axe finds nothing serious. */
const fitsAndPasses = async (page: Page, what: string) => {
  await page.waitForTimeout(200);
  // What sticks out of the window, outside any scrolling container (empty when it fits).
  const outside = await page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.overflow-x-auto'))
      .slice(0, 10)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`),
  );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} fits the window; outside it: ${outside.join(' | ')}`).toBeLessThanOrEqual(0);
  await expectAccessible(page);
};

/**
 * The campaign, sequence, template and inbox screens at 390 and 1,280 px, in the light and the
 * dark theme: each fits its window and passes axe-core.
 */
test('the messaging screens fit a phone and a desktop, in both themes, and pass axe-core', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await ownSubaccount(page, CLINIC);

  // A sandbox SMS and WhatsApp agent, a contact, a sent campaign with a reply, and a conversation.
  await connectSandbox(page, subaccountId, 'whatsapp', CLINIC);
  await connectSandbox(page, subaccountId, 'sms', CLINIC);
  await sections(page, 'SMS').getByRole('button', { name: 'Contacts' }).click();
  await page.getByLabel('CSV file').setInputFiles({ name: 'c.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await page.getByLabel('Tag every imported contact (comma-separated)').fill('screens');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  await expect(page.getByText(/Imported \d+ new/)).toBeVisible();
  await sections(page, 'SMS').getByRole('button', { name: 'Campaigns' }).click();
  const list = page.getByRole('list', { name: 'Campaigns' });
  if (!(await list.getByRole('button', { name: /Screens offer/ }).count())) {
    await page.getByRole('button', { name: 'New campaign' }).click();
    await page.getByLabel('Name').fill('Screens offer');
    await page.getByLabel('Message', { exact: true }).fill('Hi {{first_name}}, see https://clinic.example/offer');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByTestId('campaign-status')).toHaveText('Completed');
    await sections(page, 'SMS').getByRole('button', { name: 'Sandbox phone' }).click();
    await page.getByLabel('Texting as').fill('+14155554101');
    await page.getByLabel('Message', { exact: true }).fill('Is Saturday possible?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(
      page.getByRole('list', { name: 'Messages with +14155554101' }).locator('li p', { hasText: /^delivered$/ }),
    ).toHaveCount(1, { timeout: 20_000 });
  }

  for (const dark of [false, true]) {
    await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: dark } });
    for (const width of [390, 1280]) {
      const where = `${width} px, ${dark ? 'dark' : 'light'}`;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/${subaccountId}/sms/campaigns`);
      await expect(page.locator('html')).toHaveClass(dark ? /dark/ : /^(?!.*dark)/);
      await sections(page, 'SMS').getByRole('button', { name: 'Campaigns' }).click();

      // A sent campaign's report: figures, responses, replies.
      await list.getByRole('button', { name: /Screens offer/ }).click();
      await expect(page.getByRole('list', { name: 'Replies to this campaign' })).toBeVisible();
      await fitsAndPasses(page, `campaign report at ${where}`);

      // The editor with a later step (a sequence).
      await page.getByRole('button', { name: 'New campaign' }).click();
      await page.getByRole('button', { name: 'Add a step' }).click();
      await expect(page.getByLabel('Message of step 2')).toBeVisible();
      await fitsAndPasses(page, `sequence editor at ${where}`);

      for (const tab of ['Contacts', 'Conversations']) {
        await sections(page, 'SMS').getByRole('button', { name: tab, exact: true }).click();
        await fitsAndPasses(page, `${tab} at ${where}`);
      }

      // WhatsApp: the template picker.
      await page.goto(`/${subaccountId}/whatsapp/campaigns`);
      await sections(page, 'WhatsApp').getByRole('button', { name: 'Campaigns' }).click();
      await page.getByRole('button', { name: 'New campaign' }).click();
      await page.getByRole('checkbox', { name: /Send an approved WhatsApp template/ }).check();
      await expect(page.getByLabel('Approved template')).toBeVisible();
      await page.getByLabel('Approved template').selectOption({ index: 1 });
      await fitsAndPasses(page, `template picker at ${where}`);

      // The team inbox with the conversation open.
      await page.goto(`/${subaccountId}/inbox`);
      await expect(page.getByRole('list', { name: 'Transcript' })).toBeVisible();
      await fitsAndPasses(page, `team inbox at ${where}`);
    }
  }
});
