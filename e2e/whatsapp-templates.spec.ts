import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CHANNELS_CLINIC, DEMO_USERS, expectAccessible, ownSubaccount, signIn } from './support';

const CSV = [
  'Full Name,Mobile,Email',
  'Dana Scully,+1 415 555 3101,dana@example.com',
  'Fox Mulder,+1 415 555 3102,fox@example.com',
].join('\n');

const openTab = async (page: Page, name: string) => {
  await page
    .getByRole('navigation', { name: /WhatsApp Agent sections/ })
    .getByRole('button', { name })
    .click();
};

test('a WhatsApp campaign and the inbox send approved templates on the sandbox', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await ownSubaccount(page, CHANNELS_CLINIC);
  await page.goto(`/${subaccountId}/whatsapp/campaigns`);
  await expect(page.getByRole('heading', { name: 'WhatsApp Agent', level: 1 })).toBeVisible();

  // Connect the sandbox.
  await page.getByLabel('Agent').selectOption({ label: `${CHANNELS_CLINIC} Assistant` });
  await expect(page.getByRole('radio', { name: /Sandbox phone/ })).toBeChecked();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Sandbox — no real messages are sent')).toBeVisible();

  // Two contacts, tagged for the reminder.
  await openTab(page, 'Contacts');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByLabel('Phone number', { exact: true }).first()).toHaveValue('Mobile');
  await page.getByLabel('Tag every imported contact (comma-separated)').fill('reminders');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  await expect(page.getByText('Imported 2 new, updated 0, rejected 0.')).toBeVisible();

  // A campaign picks an approved template from the list (no SID to type) and maps its variables.
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page.getByLabel('Name').fill('Appointment reminders');
  await page.getByRole('radio', { name: 'Contacts with tags' }).check();
  await page.getByRole('checkbox', { name: 'reminders' }).check();
  await page.getByRole('checkbox', { name: /Send an approved WhatsApp template/ }).check();
  await expect(page.getByLabel('Template Content SID')).toHaveCount(0);
  await expect(page.getByText('Sandbox templates: messages go to the sandbox phone, never to WhatsApp.')).toBeVisible();
  await page.getByLabel('Approved template').selectOption({ label: 'Sandbox: appointment reminder (en)' });
  await expect(
    page.getByText('Hi {{1}}, this is a reminder of your appointment on {{2}}.', { exact: false }),
  ).toBeVisible();
  // {{1}} looks like a name: it starts as the first name; {{2}} is a fixed text.
  await expect(page.getByLabel('What fills {{1}}')).toHaveValue('first_name');
  await page.getByLabel('What fills {{2}}').selectOption({ label: 'Fixed text' });
  await page.getByLabel('Fixed text for {{2}}').fill('Friday at 10:00');
  await page.getByRole('button', { name: 'Preview with a contact' }).click();
  await expect(page.getByTestId('whatsapp-template-preview')).toHaveText(
    /^Hi (Dana|Fox), this is a reminder of your appointment on Friday at 10:00\. Reply YES to confirm\.$/,
  );
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send “Appointment reminders” now?' });
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Completed');
  await expect(page.getByTestId('figure-sent')).toHaveText('2');

  // Each patient got the template filled with their own name.
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155553101');
  await expect(
    page
      .getByRole('list', { name: 'Messages with +14155553101' })
      .getByText('Hi Dana, this is a reminder of your appointment on Friday at 10:00. Reply YES to confirm.'),
  ).toBeVisible();

  // Fox never wrote: the window is closed, so the reply box offers templates instead of free text.
  await openTab(page, 'Conversations');
  await page
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button', { name: /\+14155553102|Fox/ })
    .click();
  await expect(
    page.getByText('This contact has not written yet: WhatsApp accepts only an approved template.'),
  ).toBeVisible();
  await expect(page.getByLabel('Reply to the visitor')).toHaveCount(0);
  const sender = page.getByRole('form', { name: 'Send a template' });
  await sender.getByLabel('Approved template').selectOption({ label: 'Sandbox: follow-up' });
  await sender.getByLabel('Value for {{1}}').fill('Fox');
  await expect(sender.getByTestId('whatsapp-template-preview')).toHaveText(
    'Hi Fox, thanks for getting in touch. Reply to this message to carry on the conversation.',
  );
  await expectAccessible(page);
  await sender.getByRole('button', { name: 'Send template' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Transcript' })
      .getByText('Hi Fox, thanks for getting in touch. Reply to this message to carry on the conversation.'),
  ).toBeVisible();

  // Fox answers: the window opens, with its countdown, and free text is back.
  await openTab(page, 'Sandbox phone');
  await page.getByLabel('Texting as').fill('+14155553102');
  const phone = page.getByRole('list', { name: 'Messages with +14155553102' });
  await expect(phone.getByText('Hi Fox, thanks for getting in touch.', { exact: false })).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Yes, can I move it to Monday?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(phone.getByText('Yes, can I move it to Monday?')).toBeVisible();
  await openTab(page, 'Conversations');
  await page
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button', { name: /\+14155553102|Fox/ })
    .click();
  await expect(page.getByText(/^Window closes in 2[34] h/)).toBeVisible();
  await expect(page.getByLabel('Reply to the visitor')).toBeVisible();
  await expectAccessible(page);
});
