import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

const channelState = (page: Page, subaccountId: string, channel: string) =>
  page.getByTestId(`channel-state-${subaccountId}-${channel}`);

/** The state Launch must show for a messaging channel: earlier journeys may have connected it (a sandbox is live). */
const messagingState = async (page: Page, subaccountId: string, type: 'sms' | 'whatsapp' | 'instagram') => {
  const response = await page.request.get(`/api/subaccounts/${subaccountId}/channels?type=${type}`);
  const { connections } = (await response.json()) as { connections: unknown[] };
  return connections.length ? 'Live' : 'Not connected';
};

/** Whether an earlier journey put a website widget of another agent in the sub-account (it stays live). */
const hasWidget = async (page: Page, subaccountId: string) => {
  const response = await page.request.get(`/api/subaccounts/${subaccountId}/connections?type=website-widget`);
  const { connections } = (await response.json()) as { connections: unknown[] };
  return connections.length > 0;
};

/** A figure of the connection dashboard, as a number. */
const figure = async (page: Page, testId: string) => Number(await page.getByTestId(testId).textContent());

/** A visitor's chat through the widget's public API (as the embedded widget sends it). */
const visitorChat = async (page: Page, widgetId: string, n: number) => {
  const response = await page.request.post(`/api/widget/${widgetId}/chat`, {
    data: { message: `Question ${n}: do you install solar panels?`, contactIdentifier: `preview_launch_${n}` },
  });
  expect(response.status()).toBe(200);
};

test('Launch shows every channel’s true state; a paused widget refuses visitors until it is activated; the dashboard follows the chats', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
  // Earlier journeys may have chatted here today: the dashboard is checked against what was there.
  await page.goto(`/${subaccountId}/dashboard`);
  await expect(page.getByTestId('figure-messages-today')).toHaveText(/^\d+$/);
  const messagesBefore = await figure(page, 'figure-messages-today');
  const conversationsBefore = await figure(page, 'figure-conversations-today');
  const earlierWidget = await hasWidget(page, subaccountId);
  const widgetRowBefore = (await page.getByTestId('channel-row-widget').count())
    ? ((await page.getByTestId('channel-row-widget').textContent()) ?? '')
    : '';
  const [conversationsInRow, messagesInRow] = (widgetRowBefore.match(/(\d+) conv\. · (\d+) msg\./) ?? [])
    .slice(1)
    .map(Number);
  const expected = {
    sms: await messagingState(page, subaccountId, 'sms'),
    whatsapp: await messagingState(page, subaccountId, 'whatsapp'),
    instagram: await messagingState(page, subaccountId, 'instagram'),
  };
  await page.goto('/agents');

  // Launch from the sidebar: nothing is connected yet, Instagram included.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.hover();
  await sidebar.getByRole('link', { name: 'Launch', exact: true }).click();
  await expect(page).toHaveURL(/\/connect$/);
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Launch Agents');
  const sunrise = page.getByRole('region', { name: 'Sunrise Solar' });
  await expect(sunrise).toBeVisible();
  await expect(channelState(page, subaccountId, 'website-widget')).toHaveText(earlierWidget ? 'Live' : 'Not connected');
  await expect(channelState(page, subaccountId, 'website-block')).toHaveText('Not connected');
  for (const channel of ['sms', 'whatsapp', 'instagram'] as const)
    await expect(channelState(page, subaccountId, channel)).toHaveText(expected[channel]);
  if (expected.instagram === 'Not connected')
    await expect(sunrise.getByRole('link', { name: 'Set up Instagram Agent for Sunrise Solar' })).toHaveAttribute(
      'href',
      `/${subaccountId}/link3`,
    );
  await expect(page.getByText(/not built yet/)).toHaveCount(0);
  await expectAccessible(page);

  // One click into the widget's setup; the new widget waits for its first visitor.
  await sunrise.getByRole('link', { name: /^(Set up|Add another) Website Widget for Sunrise Solar$/ }).click();
  await expect(page).toHaveURL(/\/add-agent\?channel=website-widget$/);
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Sunrise Solar Assistant' });
  await page.getByRole('button', { name: 'Add agent', exact: true }).last().click();
  await page.waitForURL(/\/con_[a-z0-9]+\/website-widget$/);
  const connectionId = new URL(page.url()).pathname.split('/')[1] as string;
  const { widgetId } = (await (await page.request.get(`/api/connections/${connectionId}`)).json()) as {
    widgetId: string;
  };
  // A sandbox SMS agent too (unless an earlier journey made one): live, and labelled as the sandbox.
  if (expected.sms === 'Not connected') {
    const sms = await page.request.post('/api/channels', {
      data: {
        subaccountId,
        type: 'sms',
        buildId: (await (await page.request.get(`/api/connections/${connectionId}`)).json()).buildId,
      },
    });
    expect(sms.status()).toBe(201);
  }

  await page.goto('/connect');
  const widgetRecord = page.getByTestId(`record-state-${connectionId}`);
  await expect(widgetRecord).toHaveText('Pending connection');
  // The status store: a pending record leaves its app not connected.
  await expect(channelState(page, subaccountId, 'website-widget')).toHaveText(earlierWidget ? 'Live' : 'Not connected');
  await expect(sunrise.getByText('Embed code on the site: first visitor chat received').first()).toBeVisible();
  await expect(channelState(page, subaccountId, 'sms')).toHaveText('Live');
  await expect(sunrise.getByRole('listitem', { name: /SMS/ }).getByText(/Sandbox — nothing was sent/)).toBeVisible();

  // A visitor chats through the widget's own page: the widget is live.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/widget/${widgetId}`);
  const input = visitor.getByRole('textbox', { name: 'Type your message...' });
  const send = async (text: string) => {
    await input.fill(text);
    await visitor.getByRole('button', { name: 'Send message' }).click();
  };
  await send('Do you install solar panels?');
  await expect(visitor.locator('.row.agent .bub')).toHaveCount(2, { timeout: 20_000 });
  await page.reload();
  await expect(widgetRecord).toHaveText('Live');
  await expect(channelState(page, subaccountId, 'website-widget')).toHaveText('Live');

  // Pause: the widget refuses with CONNECTION_INACTIVE, and Launch offers Activate Connection.
  await sunrise.getByRole('button', { name: /^Pause Sunrise Solar Assistant Website Widget/ }).click();
  await expect(widgetRecord).toHaveText('Paused');
  await expect(channelState(page, subaccountId, 'website-widget')).toHaveText(earlierWidget ? 'Live' : 'Paused');
  await expect(sunrise.getByText('CONNECTION_INACTIVE')).toBeVisible();
  await expectAccessible(page);
  await send('Are you still there?');
  await expect(
    visitor.getByText(/Sorry, I'm having trouble connecting\. \(Error: This channel is paused/),
  ).toBeVisible();
  const refused = await page.request.post(`/api/widget/${widgetId}/chat`, {
    data: { message: 'Hello?', contactIdentifier: 'preview_launch_paused' },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe('CONNECTION_INACTIVE');
  // A site that loads the widget now shows no launcher.
  expect((await page.request.get(`/widget/${widgetId}/widget.js`)).status()).toBe(409);

  // Activate Connection: the widget answers again.
  await sunrise.getByRole('button', { name: /^Activate Connection/ }).click();
  await expect(widgetRecord).toHaveText('Live');
  await send('And now?');
  await expect(visitor.locator('.row.agent .bub')).toHaveCount(4, { timeout: 20_000 });

  // The dashboard's figures follow a few more chats.
  await page.goto(`/${subaccountId}/dashboard`);
  const messagesToday = page.getByTestId('figure-messages-today');
  await expect(messagesToday).toHaveText(String(messagesBefore + 4));
  await expect(page.getByTestId(`widget-usage-${connectionId}`)).toHaveText('2 / 200');
  await expect(page.getByRole('figure', { name: 'Messages per day per channel' })).toBeVisible();
  for (let n = 1; n <= 3; n += 1) await visitorChat(page, widgetId, n);
  await page.reload();
  await expect(messagesToday).toHaveText(String(messagesBefore + 10));
  await expect(page.getByTestId('figure-conversations-today')).toHaveText(String(conversationsBefore + 4));
  await expect(page.getByTestId(`widget-usage-${connectionId}`)).toHaveText('5 / 200');
  await expect(page.getByTestId('channel-row-widget')).toContainText(
    `${(conversationsInRow ?? 0) + 4} conv. · ${(messagesInRow ?? 0) + 10} msg.`,
  );
  // The connection sidebar says each channel's state.
  const accountNav = page.getByRole('navigation', { name: 'Account' });
  await expect(accountNav.getByRole('link', { name: 'Website Widget (Live)' })).toBeVisible();
  await expect(accountNav.getByRole('link', { name: `Instagram Agent (${expected.instagram})` })).toBeVisible();
  await expectAccessible(page);

  // The light theme, and a phone.
  await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: false } });
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await expect(messagesToday).toHaveText(String(messagesBefore + 10));
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(messagesToday).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.goto('/connect');
  await expect(page.getByTestId(`record-state-${connectionId}`)).toHaveText('Live');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
});

test('a viewer sees Launch but cannot pause', async ({ page }) => {
  await signIn(page, DEMO_USERS.viewer);
  await page.goto('/connect');
  await expect(page.getByRole('region', { name: 'Sunrise Solar' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pause/ })).toHaveCount(0);
  await expectAccessible(page);
});
