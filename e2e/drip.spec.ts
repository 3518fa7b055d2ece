import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { connectSandbox, DEMO_USERS, expectAccessible, ownSubaccount, SEQUENCES_CLINIC, signIn } from './support';

const CSV = ['Full Name,Mobile', 'Dana Drip,+1 415 555 3801', 'Eli Drip,+1 415 555 3802'].join('\n');

const openTab = async (page: Page, name: string) => {
  await page
    .getByRole('navigation', { name: /SMS Agent sections/ })
    .getByRole('button', { name })
    .click();
};

test('an SMS sequence on the sandbox: two steps, a reply takes one contact out, each step shows its figures', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await ownSubaccount(page, SEQUENCES_CLINIC);
  // At phone width in the light theme: the editor and the step figures must fit.
  await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: false } });
  await page.setViewportSize({ width: 390, height: 844 });
  await connectSandbox(page, subaccountId, 'sms', SEQUENCES_CLINIC);
  await expect(page.getByRole('heading', { name: 'SMS Agent', level: 1 })).toBeVisible();

  // Two contacts tagged for the sequence.
  await openTab(page, 'Contacts');
  await page.getByLabel('CSV file').setInputFiles({ name: 'drip.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByLabel('Phone number', { exact: true }).first()).toHaveValue('Mobile');
  await page.getByLabel('Tag every imported contact (comma-separated)').fill('drip');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  await expect(page.getByText(/Imported \d+ new/)).toBeVisible();

  // A campaign with a second step: one minute later, only to those who did not reply.
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page.getByLabel('Name').fill('Drip welcome');
  await page.getByRole('radio', { name: 'Contacts with tags' }).check();
  await page.getByRole('checkbox', { name: 'drip' }).check();
  await page.getByLabel('Message', { exact: true }).fill('Hi {{first_name}}, welcome to Harbor Dental! Reply to book.');
  await page.getByRole('checkbox', { name: 'Quiet hours' }).uncheck();
  await page.getByRole('button', { name: 'Add a step' }).click();
  // A delay under a minute is refused with a clear message.
  await page.getByLabel('Wait').fill('0');
  await page.getByLabel('Unit').selectOption('minutes');
  await page.getByLabel('Send to').selectOption({ label: 'Only those who did not reply' });
  await page.getByLabel('Message of step 2').fill('Still thinking about it, {{first_name}}? Reply to book.');
  await expect(page.getByRole('checkbox', { name: 'Stop on reply' })).toBeChecked();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('The delay is at least 1 minute')).toBeVisible();
  await page.getByLabel('Wait').fill('1');
  await page.getByRole('button', { name: 'Save draft' }).click();

  // The draft shows its two steps; send it.
  const steps = page.getByRole('region', { name: 'Figures of each step' });
  await expect(steps.getByRole('rowheader', { name: /Step 1/ })).toBeVisible();
  await expect(steps.getByRole('rowheader', { name: /Step 2/ })).toContainText('1 minute after step 1');
  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send “Drip welcome” now?' });
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Sending');
  await expect(page.getByTestId('step-1-sent')).toHaveText('2');
  await expect(page.getByTestId('step-2-waiting')).toHaveText('2');
  await expectAccessible(page);

  // Dana replies on the sandbox phone: she leaves the sequence.
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155553801');
  const thread = page.getByRole('list', { name: 'Messages with +14155553801' });
  await expect(thread.getByText('Hi Dana, welcome to Harbor Dental! Reply to book.')).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Yes, Tuesday please');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(thread.getByText('Yes, Tuesday please', { exact: true })).toBeVisible();

  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: /Drip welcome/ }).click();
  await expect(page.getByTestId('step-1-replied')).toHaveText('1');
  await expect(page.getByTestId('step-1-left')).toHaveText('1');

  // A minute later step 2 goes to Eli only, and the campaign completes.
  await expect(page.getByTestId('step-2-sent')).toHaveText('1', { timeout: 150_000 });
  await expect(page.getByTestId('campaign-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(page.getByTestId('step-2-waiting')).toHaveText('0');
  await expectAccessible(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155553802');
  await expect(
    page
      .getByRole('list', { name: 'Messages with +14155553802' })
      .getByText('Still thinking about it, Eli? Reply to book.'),
  ).toBeVisible();
  await page.getByLabel('Texting as').fill('+14155553801');
  await expect(page.getByRole('list', { name: 'Messages with +14155553801' }).getByText(/Still thinking/)).toHaveCount(
    0,
  );
});
