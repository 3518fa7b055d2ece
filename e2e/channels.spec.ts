import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

const CSV = [
  'Full Name,Mobile,Company',
  'Ada Lovelace,(415) 555-2671,Analytical',
  'Bad Row,12345,Nowhere',
  'Grace Hopper,+1 415 555 2672,Navy',
  'Ada Again,415-555-2671,Duplicate',
  'Alan Turing,+1 415 555 2673,Bletchley',
].join('\n');

const openTab = async (page: Page, name: string) => {
  await page
    .getByRole('navigation', { name: /SMS Agent sections/ })
    .getByRole('button', { name })
    .click();
};

const newCampaign = async (page: Page, name: string, message: string) => {
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('radio', { name: 'Contacts with tags' }).check();
  await page.getByRole('checkbox', { name: 'spring' }).check();
  await page.getByLabel('Message', { exact: true }).fill(message);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('button', { name: 'Send now' }).click();
  // The confirmation states the audience before anything goes out.
  const confirm = page.getByRole('dialog', { name: `Send “${name}” now?` });
  await expect(confirm).toContainText(/It goes out now to \d+ contacts?/);
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Completed');
};

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

test('an SMS campaign on the sandbox: import, send, reply, STOP, and the next campaign skips the number', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
  await page.goto(`/${subaccountId}/sms/campaigns`);
  // No connection sidebar on /sms/ pages.
  await expect(page.getByRole('heading', { name: 'SMS Agent', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Website Widget' })).toHaveCount(0);

  // Connect the sandbox.
  await page.getByLabel('Agent').selectOption({ label: 'Sunrise Solar Assistant' });
  await expect(page.getByRole('radio', { name: /Sandbox phone/ })).toBeChecked();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Sandbox — no real messages are sent')).toBeVisible();
  await expectAccessible(page);

  // Import a CSV with good and bad rows.
  await openTab(page, 'Contacts');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByLabel('Phone number', { exact: true }).first()).toHaveValue('Mobile');
  await page.getByLabel('Tag every imported contact (comma-separated)').fill('spring');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  await expect(page.getByText('Imported 3 new, updated 0, rejected 2.')).toBeVisible();
  const rejected = page.getByRole('table', { name: 'Rejected rows' });
  await expect(rejected.getByText('MESSAGE_INVALID_NUMBER')).toBeVisible();
  await expect(rejected.getByText('E.164 format required, for example +15555555555')).toBeVisible();
  await expect(rejected.getByText('DUPLICATE')).toBeVisible();
  await expectAccessible(page);

  // Send a campaign.
  await newCampaign(page, 'Spring offer', 'Hi {{first_name}}, our spring offer is on! Reply to ask anything.');
  await expect(page.getByTestId('figure-sent')).toHaveText('3');
  await expect(page.getByRole('figure', { name: 'Messages per minute' })).toBeVisible();
  await expectAccessible(page);

  // Reply from the sandbox phone and see the agent's answer.
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155552671');
  const thread = page.getByRole('list', { name: 'Messages with +14155552671' });
  await expect(thread.getByText('Hi Ada, our spring offer is on! Reply to ask anything.')).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Do you install solar panels?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(thread.getByText('Do you install solar panels?')).toBeVisible();
  // The agent's answer arrives (the campaign message is labelled "Campaign · delivered").
  await expect(thread.locator('li p', { hasText: /^delivered$/ })).toHaveCount(1);
  await expect(thread.locator('li')).toHaveCount(4);
  await expectAccessible(page);

  // The figures count the reply.
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: /Spring offer/ }).click();
  await expect(page.getByTestId('figure-replied')).toHaveText('1');

  // STOP from another number.
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155552672');
  await page.getByRole('button', { name: 'STOP' }).click();
  await expect(
    page.getByRole('list', { name: 'Messages with +14155552672' }).getByText(/You have been unsubscribed/),
  ).toBeVisible();

  // The next campaign skips that number.
  await newCampaign(page, 'Summer news', 'Summer news for {{first_name}}');
  await expect(page.getByTestId('figure-sent')).toHaveText('2');
  await expect(page.getByText(/1 skipped/)).toBeVisible();
  await openTab(page, 'Contacts');
  await expect(page.getByRole('row', { name: /\+14155552672/ })).toContainText('Opted out (texted STOP)');

  // A person answers from the inbox with a picture uploaded from the computer; the phone gets it.
  await openTab(page, 'Conversations');
  await page
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button', { name: /\+14155552671/ })
    .click();
  await page
    .getByLabel('Attach a file')
    .setInputFiles({ name: 'not-a-picture.png', mimeType: 'image/png', buffer: Buffer.from('<html></html>') });
  await expect(page.getByText('Send an image (JPEG, PNG, GIF or WebP) or a PDF.')).toBeVisible();
  await page.getByLabel('Attach a file').setInputFiles({ name: 'panel.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Attached: panel.png')).toBeVisible();
  await page.getByLabel('Reply to the visitor').fill('Here is the panel we install.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Transcript' }).getByRole('link', { name: 'Attachment' })).toBeVisible();
  await expectAccessible(page);
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155552671');
  const withPicture = page.getByRole('list', { name: 'Messages with +14155552671' });
  await expect(withPicture.getByText('Here is the panel we install.')).toBeVisible();
  await expect(withPicture.getByRole('link', { name: /Attachment/ })).toHaveAttribute('href', /\/api\/media\/med_/);
});

test('the SMS pages at phone width in the light theme', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Harbor Dental');
  await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: false } });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${subaccountId}/whatsapp/campaigns`);
  await expect(page.getByRole('heading', { name: 'WhatsApp Agent', level: 1 })).toBeVisible();
  await page.getByLabel('Agent').selectOption({ label: 'Harbor Dental Receptionist' });
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Sandbox — no real messages are sent')).toBeVisible();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.waitForTimeout(500);
  await expectAccessible(page);
  for (const tab of ['Sandbox phone', 'Settings', 'Contacts']) {
    await page
      .getByRole('navigation', { name: /WhatsApp Agent sections/ })
      .getByRole('button', { name: tab })
      .click();
    await expectAccessible(page);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});
