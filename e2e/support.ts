import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const DEMO_USERS = {
  admin: 'admin@demo.switchboard.local',
  member: 'member@demo.switchboard.local',
  viewer: 'viewer@demo.switchboard.local',
};

interface MailboxMessage {
  to: string;
  link: string | null;
  createdAt: string;
}

/** The newest sign-in link mailed to the address, read from the dev mailbox. */
export const latestLinkFor = async (page: Page, email: string): Promise<string> => {
  let link: string | null = null;
  await expect
    .poll(async () => {
      const response = await page.request.get('/api/dev/mailbox');
      const body = (await response.json()) as { messages: MailboxMessage[] };
      link =
        body.messages.find((message) => message.to === email && message.link?.includes('/auth/confirm'))?.link ?? null;
      return link;
    })
    .not.toBeNull();
  return link as unknown as string;
};

/** Signs in as a person would: the Welcome Back dialog, the mailed link, the confirm button. */
export const signIn = async (page: Page, email: string) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Get started', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Continue with Email' }).click();
  await expect(page.getByRole('dialog', { name: 'Check your email' })).toBeVisible();
  const link = await latestLinkFor(page, email);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/agents/create');
};

/**
 * No serious or critical axe-core violation on the current page, checked once running CSS
 * transitions (a theme switch fades colours, a toast slides in) have finished, so colours are the
 * final ones. A transition that begins a frame later (a toast mounted just now) is waited for too.
 */
export const expectAccessible = async (page: Page) => {
  // The page at rest: no control under the pointer in its hover colours, no transition under way.
  // The pointer goes to the right edge, away from the sidebar, which widens while it is hovered.
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.mouse.move(viewport.width - 2, Math.round(viewport.height / 2));
  await page.evaluate(async () => {
    const nextFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let round = 0; round < 10; round += 1) {
      await nextFrames();
      const running = document.getAnimations().filter((animation) => animation.playState === 'running');
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
  const results = await new AxeBuilder({ page }).analyze();
  // A toast whose time ran out while axe was reading fades out (`data-removed`) and is then gone:
  // its colours were not at rest. Sonner marks a toast's title with `data-title`.
  const leaving = async (target: string, html: string) => {
    const state = await page.evaluate((selector) => {
      const element = document.querySelector(selector);
      if (!element) return 'gone';
      return element.closest('[data-sonner-toast]')?.getAttribute('data-removed') === 'true' ? 'leaving' : 'here';
    }, target);
    return state === 'leaving' || (state === 'gone' && html.includes('data-title'));
  };
  const bad = [];
  for (const violation of results.violations) {
    if (!['serious', 'critical'].includes(violation.impact ?? '')) continue;
    const nodes = [];
    for (const node of violation.nodes) if (!(await leaving(node.target.join(' '), node.html))) nodes.push(node);
    if (nodes.length) bad.push({ ...violation, nodes });
  }
  expect(
    bad.map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''} ${node.html.slice(0, 160)}`).join(', ')}`,
    ),
  ).toEqual([]);
};

/** The id of the demo agency's sub-account with this name. */
export const subaccountIdOf = async (page: Page, name: string): Promise<string> => {
  const response = await page.request.get('/api/accounts');
  const { accounts } = (await response.json()) as { accounts: { subaccounts: { id: string; name: string }[] }[] };
  const found = accounts.flatMap((account) => account.subaccounts).find((sub) => sub.name === name);
  if (!found) throw new Error(`No sub-account ${name}`);
  return found.id;
};

/**
 * The demo agency's sub-accounts for journeys that connect channels, so the demo sub-accounts show
 * every journey what they always show (journeys of a group share one server). The demo agency is on
 * Growth (5 sub-accounts): these two and the integrations journey's make five. The journeys sharing
 * one connect different channels, or find their own contacts by tag.
 */
export const CHANNELS_CLINIC = 'Channels Clinic';
export const SEQUENCES_CLINIC = 'Sequences Clinic';

/** A sub-account of the demo agency, with an agent named after it, made on its first use. */
export const ownSubaccount = async (page: Page, name: string): Promise<string> => {
  const { accounts } = (await (await page.request.get('/api/accounts')).json()) as {
    accounts: { id: string; subaccounts: { id: string; name: string }[] }[];
  };
  const found = accounts.flatMap((account) => account.subaccounts).find((sub) => sub.name === name);
  if (found) return found.id;
  const created = await page.request.post('/api/subaccounts', { data: { accountId: accounts[0]?.id, name } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // Its own agent, for the channels a journey connects there.
  const agent = await page.request.post('/api/agents', {
    headers: { 'x-subaccount-id': id },
    data: { name: `${name} Assistant`, systemPrompt: `You answer for ${name}.` },
  });
  expect(agent.status()).toBe(201);
  return id;
};

/**
 * The sub-account's SMS or WhatsApp agent on the sandbox phone, connected on first use with the
 * agent `ownSubaccount` made: waits for the page to show either the connect form or the connection.
 */
export const connectSandbox = async (page: Page, subaccountId: string, channel: 'sms' | 'whatsapp', name: string) => {
  await page.goto(`/${subaccountId}/${channel}/campaigns`);
  const connect = page.getByRole('button', { name: 'Connect' });
  const connected = page.getByText('Sandbox — no real messages are sent');
  await expect(connect.or(connected)).toBeVisible();
  if (await connect.isVisible()) {
    await page.getByLabel('Agent').selectOption({ label: `${name} Assistant` });
    await connect.click();
  }
  await expect(connected).toBeVisible();
};

/**
 * Opens a finished run's results from its running page. The running page stays on screen while
 * the results page's code loads (the navigation is a transition), and it lists the same
 * conversations: the journey waits for the results page's own list before reading anything.
 */
export const openRunResults = async (page: Page) => {
  await page.getByRole('link', { name: 'View results' }).click();
  await expect(page.getByRole('region', { name: 'Conversations', exact: true })).toBeVisible();
};
