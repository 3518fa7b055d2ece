import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import Stripe from 'stripe';
import {
  type AgencyStripeStub,
  startAgencyStripeStub,
} from '../apps/server/src/features/client-plans/agency-stripe-stub';
import { expect, test } from './fixtures';
import { expectAccessible, latestLinkFor, signIn } from './support';

const AGENCY_KEY = 'sk_test_resaleAgency0001';
const WEBHOOK_SECRET = 'whsec_resaleAgency0001';

/** An event as the agency's Stripe sends it, signed with the secret the agency pasted. */
const deliver = async (page: Page, accountId: string, type: string, object: object) => {
  const payload = JSON.stringify({
    id: `evt_${type.replace(/\W/g, '_')}_${Date.now()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const response = await page.request.post(`/api/client-billing/stripe-webhook/${accountId}`, {
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    data: payload,
  });
  expect(response.status(), await response.text()).toBe(200);
};

/**
 * Agency resale end to end: the agency (on a white-label plan) connects its Stripe (a stand-in
 * over HTTP), makes a client plan, brands its portal and invites a client; the client signs in on
 * the agency's page, subscribes through the agency's Stripe checkout, chats with its agent and
 * sees nothing but its own; the agency sees its margin on that client.
 */
test('an agency resells to a client on its own Stripe, under its own brand', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  const stub: AgencyStripeStub = await startAgencyStripeStub(
    [AGENCY_KEY],
    Number(new URL(baseURL ?? 'http://localhost:3199').port) + 1000,
  );
  try {
    const stamp = Date.now();
    const ownerEmail = `resale-owner-${stamp}@example.test`;
    const clientEmail = `resale-client-${stamp}@client.test`;
    const slug = `bright-${stamp}`;

    // The agency signs up and moves to Scale (white-label) on the platform's sandbox.
    await signIn(page, ownerEmail);
    await page.goto('/pricing');
    const popup = page.context().waitForEvent('page');
    await page
      .getByRole('article', { name: /^Scale/ })
      .first()
      .getByRole('button', { name: 'Subscribe' })
      .click();
    const checkout = await popup;
    await checkout.getByRole('button', { name: 'Pay now' }).click();
    await checkout.waitForURL('**/success**');
    await checkout.close();
    const account = (await (await page.request.get('/api/accounts')).json()).accounts[0] as {
      id: string;
      subaccounts: { id: string; name: string }[];
    };
    const subaccountId = account.subaccounts[0]?.id as string;
    const agent = await page.request.post('/api/agents', {
      headers: { 'x-subaccount-id': subaccountId },
      data: { name: 'Front desk' },
    });
    expect(agent.status()).toBe(201);
    const agentId = (await agent.json()).id as string;

    // Settings: its brand and sign-in page, its Stripe, a client plan.
    await page.goto('/settings');
    const branding = page.locator('form').filter({ has: page.getByLabel('Brand name') });
    await branding.getByLabel('Brand name').fill('Bright Growth');
    await branding.getByLabel('Sign-in page address').fill(slug);
    await branding.getByLabel('Colour').fill('#1d4ed8');
    await branding.getByRole('button', { name: 'Save branding' }).click();
    await expect(page.getByText('Branding saved')).toBeVisible();

    await page.getByLabel('Secret key').fill('sk_test_notTheAgencyKey99');
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await expect(page.getByText('Stripe did not accept this key.', { exact: false })).toBeVisible();
    await page.getByLabel('Secret key').fill(AGENCY_KEY);
    await page.getByLabel('Webhook signing secret').fill(WEBHOOK_SECRET);
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await expect(page.getByText(/Connected: test secret key ending in/)).toBeVisible();
    await expect(page.getByText('Webhook secret saved.')).toBeVisible();

    await page.getByLabel('Name', { exact: true }).fill('Care');
    await page.getByPlaceholder('99.00').fill('49');
    await page.getByLabel('Credits included each month').fill('500');
    await page.getByRole('button', { name: 'Add plan' }).click();
    await expect(page.getByRole('button', { name: 'Remove the plan Care' })).toBeVisible();
    await expectAccessible(page);

    // Team: the client may edit its agent (for its test chat); it is invited with the Client role.
    await page.goto(`/${subaccountId}/team`);
    await page.getByRole('switch', { name: 'Edit agents' }).click();
    await expect(page.getByRole('switch', { name: 'Edit agents' })).toHaveAttribute('aria-checked', 'true');
    await page.getByPlaceholder('teammate@agency.com').fill(clientEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('client');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByText(`${clientEmail} · invitation pending`)).toBeVisible();
    await expectAccessible(page);

    // The client, in a browser of its own, signs in on the agency's page: the agency's brand, not the platform's.
    const clientContext = await browser.newContext();
    const client = await clientContext.newPage();
    await client.route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Checkout</title><main><h1>Stripe Checkout</h1></main></html>',
      }),
    );
    await client.goto(`/a/${slug}`);
    await expect(client.getByText('Bright Growth').first()).toBeVisible();
    await expect(client.getByText(/Switchboard/)).toHaveCount(0);
    await expectAccessible(client);
    await client.getByLabel('Email').fill(clientEmail);
    await client.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await client.goto(await latestLinkFor(client, clientEmail));
    await client.getByRole('button', { name: 'Sign in' }).click();
    await expect(client.getByRole('navigation', { name: 'Portal' }).first()).toBeVisible();
    await expect(client.getByText(/Switchboard/)).toHaveCount(0);

    // It subscribes to Care through the agency's Stripe checkout.
    await client.goto(`/${subaccountId}/plan`);
    await expect(client.getByText('No plan yet. Choose one below.')).toBeVisible();
    await expectAccessible(client);
    await client.getByRole('button', { name: 'Choose Care' }).click();
    await client.waitForURL('https://checkout.stripe.test/**');
    const session = [...stub.sessions.values()].find((item) => item.url === client.url()) as { id: string };
    const subscription = stub.complete(session.id) as { id: string; customer: string; metadata: object };
    await deliver(client, account.id, 'checkout.session.completed', {
      ...stub.sessions.get(session.id),
      object: 'checkout.session',
    });
    const now = Math.floor(Date.now() / 1000);
    await deliver(client, account.id, 'invoice.paid', {
      id: `in_resale_${stamp}`,
      object: 'invoice',
      customer: subscription.customer,
      amount_paid: 4900,
      currency: 'usd',
      billing_reason: 'subscription_create',
      hosted_invoice_url: `https://invoice.stripe.test/in_resale_${stamp}`,
      parent: { subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      lines: { data: [{ period: { start: now, end: now + 30 * 86_400 } }] },
    });
    // Stripe sends the client back to the success address the checkout was made with.
    const successUrl = stub.requests
      .find((request) => request.path === '/v1/checkout/sessions')
      ?.form.get('success_url');
    expect(successUrl).toBe(`${new URL(baseURL ?? '').origin}/${subaccountId}/plan?checkout=success`);
    await client.goto(successUrl as string);
    await expect(client.getByText('Thank you. Your plan starts as soon as the payment is confirmed.')).toBeVisible();
    await expect(client.getByText(/Care · \$49(\.00)? \/ month · Active/)).toBeVisible();
    await expect(client.getByText('$49.00').first()).toBeVisible();

    // It chats with its agent.
    await client.goto(`/agents/${agentId}`);
    await client.getByLabel('Test message').fill('Hello, what are your opening hours?');
    await client.getByRole('button', { name: 'Send' }).click();
    // No provider key here: the offline model answers, and says so.
    await expect(client.getByRole('log').getByText('Offline model')).toBeVisible();
    await expect
      .poll(
        async () =>
          (await (await client.request.get(`/api/subaccounts/${subaccountId}/client-plan`)).json()).usage.used,
      )
      .toBeGreaterThan(0);

    // Only its own: the agency's billing, settings and other routes are not there for it.
    for (const path of ['/api/billing/overview', '/api/affiliate', `/api/accounts/${account.id}/client-billing`]) {
      expect((await client.request.get(path)).status(), path).toBe(404);
    }
    const accounts = (await (await client.request.get('/api/accounts')).json()).accounts as {
      subaccounts: { id: string }[];
    }[];
    expect(accounts.flatMap((item) => item.subaccounts.map((sub) => sub.id))).toEqual([subaccountId]);
    await client.goto('/settings');
    await expect(client.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await client.setViewportSize({ width: 390, height: 844 });
    await client.goto(`/${subaccountId}/plan`);
    await expect(client.getByText('Your current plan')).toBeVisible();
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(client);
    await clientContext.close();

    // The agency sees what the client paid, what its credits cost and the margin.
    await page.goto('/settings');
    const margin = page.getByRole('region', { name: 'Margin per client' });
    const row = margin.getByRole('row').filter({ hasText: account.subaccounts[0]?.name ?? '' });
    await expect(row).toContainText('$49.00');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const csv = await download;
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    expect(await readFile((await csv.path()) as string, 'utf8')).toContain('49.00');
    await expectAccessible(page);
  } finally {
    await stub.close();
  }
});
