import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, ownSubaccount, signIn } from './support';
import { addAgent, copyEmbedCode, saveAndDeploy, startHostSite, visitorPage } from './widget-support';

const CLINIC = 'Integrations Clinic';

test('connect the sandbox calendar, let an agent book a slot in the test chat and in the website widget, and see the bookings', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, DEMO_USERS.admin);
  // A client of its own, so the connection, the agent and its widget leave the others untouched.
  const clinicId = await ownSubaccount(page, CLINIC);
  // The workspace's current sub-account (what the account switcher sets).
  await page.evaluate((id) => localStorage.setItem('sb:current-subaccount', JSON.stringify(id)), clinicId);
  await page.goto('/integrations');
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Integrations sections' }).getByRole('link', { name: 'Apps' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('Sandbox apps.')).toBeVisible();
  const apps = page.getByRole('list', { name: 'Apps' });
  await expect(apps.getByRole('heading', { name: 'Calendar' })).toBeVisible();
  const connections = page.getByRole('list', { name: 'Connections' });
  await expect(page.getByText('No app is connected yet.').or(connections.getByRole('listitem').first())).toBeVisible();

  // An earlier run may have left the calendar connected: start from a fresh connection.
  const calendar = connections.locator('[data-app="sandbox_calendar"]');
  if (await calendar.count()) {
    await calendar.getByRole('button', { name: /^Disconnect/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Calendar?' });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect(calendar).toHaveCount(0);
  }

  // OAuth: the sandbox sends the browser straight back to the callback, which marks it connected.
  await apps.getByRole('button', { name: 'Connect Calendar' }).click();
  await page.waitForURL(/\/integrations$/);
  await expect(calendar.getByText('Connected')).toBeVisible();
  await expect(calendar.getByText('Sandbox')).toBeVisible();
  await expect(calendar).toContainText('2 tools');
  await expectAccessible(page);

  // The agent, drafted by the offline model, gets the booking tool with the attendee fixed by hand.
  await page.goto('/agents/create');
  await page.getByLabel('Your agent idea').fill('A receptionist for Integrations Dental that books appointments');
  await page.getByLabel('Model that writes the draft').selectOption('offline::offline');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);

  const card = page.locator('fieldset', { hasText: 'SANDBOX_CALENDAR_BOOK_SLOT' });
  await card.getByRole('checkbox', { name: /^Book a slot/ }).check();
  await expect(card.getByRole('textbox', { name: /^Date/ })).toHaveValue('Determined by model');
  await card.getByRole('button', { name: 'Set Attendee manually' }).click();
  await card.getByRole('textbox', { name: 'Attendee' }).fill('Grace Hopper');
  await page.getByRole('button', { name: 'Save app tools' }).click();
  await expect(page.getByText('App tools saved')).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Test message').fill('Please book a slot tomorrow at 10:00');
  await page.getByRole('button', { name: 'Send' }).click();
  const log = page.getByRole('log');
  const calls = log.getByRole('list', { name: 'Tool calls' });
  await expect(calls.first()).toContainText('SANDBOX_CALENDAR_BOOK_SLOT');
  await expect(calls.first()).toContainText('"booked":true');

  // The same slot again: the refusal reaches the transcript as the tool's result, with the field.
  await page.getByLabel('Test message').fill('Please book a slot tomorrow at 10:00');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(calls.nth(1)).toContainText('TOOL_EXECUTION_FAILED');
  await expect(calls.nth(1)).toContainText('"field":"time"');

  // The same agent on a client's website: a visitor books through the widget, and the agency's
  // inbox shows the tool the agent called.
  const agentId = new URL(page.url()).pathname.split('/').at(-1) as string;
  const connectionId = await addAgent(page, clinicId, agentId, 'Website Widget');
  await page.getByLabel('First message text').fill('Welcome! I can book you in.');
  await page.getByLabel('First message text').blur();
  await saveAndDeploy(page);
  const code = await copyEmbedCode(page);
  const host = await startHostSite();
  const later = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  try {
    host.setBody(code);
    const visitor = await visitorPage(browser);
    await visitor.goto(host.origin);
    await visitor.getByRole('button', { name: /^Open chat/ }).click();
    const chat = visitor.frameLocator('iframe');
    await expect(chat.getByText('Welcome! I can book you in.')).toBeVisible();
    await chat.getByRole('textbox').fill(`Please book a slot on ${later} at 11:00`);
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(chat.locator('.row.agent .bub')).toHaveCount(2, { timeout: 20_000 });
    await visitor.context().close();
  } finally {
    host.server.close();
  }
  await page.goto(`/${connectionId}/conversations`);
  await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').first().click();
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByRole('list', { name: 'Tool calls' })).toContainText('SANDBOX_CALENDAR_BOOK_SLOT');
  await expect(transcript.getByRole('list', { name: 'Tool calls' })).toContainText('"booked":true');
  await expectAccessible(page);

  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await page.goto('/integrations');
  const bookings = page.getByRole('list', { name: 'Calendar bookings' });
  await expect(bookings).toContainText(`${tomorrow} at 10:00`);
  await expect(bookings).toContainText(`${later} at 11:00`);
  await expect(bookings).toContainText('Grace Hopper');
  await expectAccessible(page);

  // A phone-sized screen keeps the page within its width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(bookings).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
});
