import type { Page } from '@playwright/test';
import twilio from 'twilio';
import {
  startTwilioStub,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioStub,
} from '../apps/server/src/testing/twilio-stub';
import { expect, test } from './fixtures';
import { CHANNELS_CLINIC, DEMO_USERS, expectAccessible, ownSubaccount, signIn } from './support';

const SENDER = '+15005550006';
const AGENCY_PHONE = '+14155550199';
const CSV = ['Name,Phone,Timezone', 'Ada Lovelace,+14155552681,Europe/London', 'Grace Hopper,+14155552682,'].join('\n');
const OFFER = 'Hi {{first_name}}, 20% off whitening this month: https://harbor.example/offer - want a slot on Friday?';

let stub: TwilioStub;

test.beforeAll(async ({ baseURL }) => {
  // Twilio's REST API: a stand-in on the port e2e/serve.mjs gives the server (TWILIO_API_URL).
  stub = await startTwilioStub(Number(new URL(baseURL ?? 'http://localhost:3199').port) + 1001);
});
test.afterAll(() => stub.close());

const openTab = async (page: Page, name: string) => {
  await page
    .getByRole('navigation', { name: /SMS Agent sections/ })
    .getByRole('button', { name, exact: true })
    .click();
};

/** A text from a contact, as Twilio posts it: form-encoded, signed with the SDK's own function. */
const textFrom = async (page: Page, baseURL: string, connectionId: string, from: string, body: string) => {
  const url = `${baseURL}/api/webhooks/twilio/${connectionId}`;
  const params = {
    MessageSid: `SM${Date.now().toString(16).padStart(32, '0')}`,
    AccountSid: TEST_ACCOUNT_SID,
    From: from,
    To: SENDER,
    Body: body,
    NumMedia: '0',
  };
  const response = await page.request.post(url, {
    headers: { 'x-twilio-signature': twilio.getExpectedTwilioSignature(TEST_AUTH_TOKEN, url, params) },
    form: params,
  });
  expect(response.status(), await response.text()).toBe(200);
};

/**
 * A campaign on Twilio's stand-in, as an agency runs it: the confirmation states the audience and
 * the cost, a test goes to the agency's own number first, links go out as short links counted per
 * recipient, a reply lands in the recipient's thread after the campaign text (the agent and the
 * person who takes over both see what was sent), and the team answers it from the shared inbox.
 */
test('a campaign on Twilio: estimate, test send, tracked links, a reply in its thread, and the team inbox', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = baseURL ?? 'http://localhost:3199';
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await ownSubaccount(page, CHANNELS_CLINIC);
  await page.goto(`/${subaccountId}/sms/campaigns`);

  // Connect Twilio: the credentials are checked with one call to the stand-in.
  await page.getByLabel('Agent').selectOption({ index: 1 });
  await page.getByRole('radio', { name: /Twilio/ }).check();
  await page.getByLabel('Account SID').fill(TEST_ACCOUNT_SID);
  await page.getByLabel('Auth token').fill(TEST_AUTH_TOKEN);
  await page.getByLabel('Sending number').fill(SENDER);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Sandbox — no real messages are sent')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: /SMS Agent sections/ })).toBeVisible();

  // The provider's price, for the estimate; the webhook URL to paste into Twilio.
  await openTab(page, 'Settings');
  const webhookUrl = await page.getByLabel(/^Webhook URL/).inputValue();
  const connectionId = webhookUrl.split('/').pop() ?? '';
  expect(connectionId).toMatch(/^con_/);
  await page.getByLabel('Your provider’s price per segment (for campaign estimates)').fill('0.0079');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByLabel('Your provider’s price per segment (for campaign estimates)')).toHaveValue('0.0079');

  // Contacts with a time zone column.
  await openTab(page, 'Contacts');
  await page.getByLabel('CSV file').setInputFiles({ name: 'c.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await page.getByLabel('Tag every imported contact (comma-separated)').fill('whitening');
  await page.getByRole('button', { name: 'Import contacts' }).click();
  await expect(page.getByText('Imported 2 new, updated 0, rejected 0.')).toBeVisible();

  // A campaign with a link.
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: 'New campaign' }).click();
  await page.getByLabel('Name').fill('Whitening month');
  await page.getByRole('radio', { name: 'Contacts with tags' }).check();
  await page.getByRole('checkbox', { name: 'whitening' }).check();
  await page.getByLabel('Message', { exact: true }).fill(OFFER);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByRole('button', { name: 'Send now' }).click();

  // Before sending: the audience and the cost, and a test to the agency's own number.
  const confirm = page.getByRole('dialog', { name: 'Send “Whitening month” now?' });
  await expect(confirm).toContainText('It goes out now to 2 contacts');
  await expect(confirm).toContainText(/segments? .* × USD 0\.0079 = estimated USD/);
  await expect(confirm).toContainText('No credits are used.');
  await expectAccessible(page);
  await confirm.getByLabel('Send a test to your number first').fill(AGENCY_PHONE);
  await confirm.getByRole('button', { name: 'Send test' }).click();
  await expect(confirm.getByText(`Sent to ${AGENCY_PHONE}. It does not count in the campaign.`)).toBeVisible();
  await expect.poll(() => stub.messages.map((message) => message.params.To)).toEqual([AGENCY_PHONE]);
  await confirm.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('campaign-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(page.getByTestId('figure-sent')).toHaveText('2');

  // Each recipient got their own short link on the platform's domain.
  const toAda = stub.messages.find((message) => message.params.To === '+14155552681');
  const body = String(toAda?.params.Body ?? '');
  expect(body).toMatch(/^Hi Ada, 20% off whitening this month: http:\/\/localhost:\d+\/l\/\w+ - want a slot/);
  const shortLink = body.match(/http:\/\/localhost:\d+\/l\/\w+/)?.[0] ?? '';
  const toGrace = String(stub.messages.find((message) => message.params.To === '+14155552682')?.params.Body ?? '');
  expect(toGrace).not.toContain(shortLink);
  // Ada opens the link: it leads to the agency's page and counts as a click.
  const click = await page.request.get(shortLink, { maxRedirects: 0 });
  expect(click.status()).toBe(302);
  expect(click.headers().location).toBe('https://harbor.example/offer');

  // Ada answers the campaign.
  await textFrom(page, origin, connectionId, '+14155552681', 'Yes, Friday works');
  await expect
    .poll(() => stub.messages.filter((m) => m.params.To === '+14155552681').length, { timeout: 20_000 })
    .toBe(2);
  await page.reload();
  await openTab(page, 'Campaigns');
  await page.getByRole('button', { name: /Whitening month/ }).click();
  await expect(page.getByTestId('tracking-clicks')).toHaveText('1');
  await expect(page.getByTestId('tracking-replies')).toHaveText(/^1 /);
  const replies = page.getByRole('list', { name: 'Replies to this campaign' });
  await expect(replies.getByText('Yes, Friday works')).toBeVisible();
  await expectAccessible(page);

  // Clone it for next month.
  await page.getByRole('button', { name: 'Clone' }).click();
  await expect(
    page.getByRole('list', { name: 'Campaigns' }).getByRole('button', { name: /Whitening month/ }),
  ).toHaveCount(2);
  await page
    .getByRole('list', { name: 'Campaigns' })
    .getByRole('button', { name: /Whitening month/ })
    .last()
    .click();
  await page
    .getByRole('list', { name: 'Replies to this campaign' })
    .getByRole('link', { name: 'Open conversation' })
    .click();

  // The team inbox opens Ada's thread: the campaign text comes before her reply.
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText(/20% off whitening this month/)).toBeVisible();
  await expect(transcript.getByText('Yes, Friday works', { exact: true })).toBeVisible();
  const texts = await transcript.locator('li').allInnerTexts();
  const sentAt = texts.findIndex((text) => text.includes('20% off whitening'));
  const repliedAt = texts.findIndex((text) => text.includes('Yes, Friday works'));
  expect(sentAt).toBeGreaterThanOrEqual(0);
  expect(sentAt).toBeLessThan(repliedAt);

  // Labels and a canned reply for the team.
  await page.getByRole('button', { name: 'Labels and replies' }).click();
  const settings = page.getByRole('dialog', { name: 'Labels and canned replies' });
  await settings.getByLabel('New label').fill('Booking');
  await settings.getByRole('button', { name: 'Add label' }).click();
  await settings.getByLabel('New canned reply: title').fill('Friday slots');
  await settings.getByLabel('Text').fill('We have Friday slots at 10:00 and 14:30. Which suits you?');
  await settings.getByRole('button', { name: 'Add canned reply' }).click();
  await expect(settings.getByText('Friday slots', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  // Assign the thread to me, label it, note who she is.
  await page.getByTestId('team-inbox-layout').getByLabel('Assigned to').selectOption({ label: 'Avery Admin' });
  await page.getByRole('button', { name: 'Booking', pressed: false }).click();
  await expect(page.getByRole('button', { name: 'Booking', pressed: true })).toBeVisible();
  const contact = page.getByRole('region', { name: 'Contact' }).or(page.locator('[aria-label="Contact"]'));
  await contact.getByLabel('Notes').fill('Prefers afternoons.');
  await contact.getByRole('button', { name: 'Save contact' }).click();
  await expect(contact.getByRole('button', { name: 'Save contact' })).toBeDisabled();
  await expect(contact.getByText(/SMS/)).toBeVisible();

  // Answer with the canned reply: "/" lists them.
  const reply = page.getByRole('combobox', { name: 'Reply to the visitor' });
  await reply.fill('/Friday');
  await page
    .getByRole('listbox', { name: 'Canned replies' })
    .getByRole('option', { name: /Friday slots/ })
    .click();
  await expect(reply).toHaveValue('We have Friday slots at 10:00 and 14:30. Which suits you?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(transcript.getByText('We have Friday slots at 10:00 and 14:30. Which suits you?')).toBeVisible();
  await expect
    .poll(() => stub.messages.some((m) => String(m.params.Body).startsWith('We have Friday slots')))
    .toBe(true);
  await expectAccessible(page);

  // Filters: by label and by assignee; Grace's thread (no reply, no label) is not among them.
  const filters = page.getByRole('group', { name: 'Filters' });
  await filters.getByLabel('Label').selectOption({ label: 'Booking' });
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByRole('button')).toHaveCount(1);
  await filters.getByLabel('Assigned to').selectOption({ label: 'Nobody' });
  await expect(page.getByText('No conversation matches these filters.')).toBeVisible();
  await filters.getByLabel('Assigned to').selectOption({ label: 'Me' });
  await expect(list.getByRole('button')).toHaveCount(1);
  await filters.getByLabel('Channel').selectOption({ label: 'SMS' });
  await expect(list.getByRole('button')).toHaveCount(1);
  await expectAccessible(page);
});
