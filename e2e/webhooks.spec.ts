import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';

test('an admin adds a webhook endpoint, sends a test event, reads the log, resends and verifies the signature', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/n8n/webhook`;
  try {
    await signIn(page, DEMO_USERS.admin);
    const subaccountId = await subaccountIdOf(page, 'Harbor Dental');
    await page.goto(`/${subaccountId}/ai-settings`);
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    // An address inside the network is refused with its reason, and nothing is saved.
    await page.getByLabel('Endpoint URL').fill('http://10.0.0.8/hook');
    await page.getByRole('form', { name: 'Add endpoint' }).getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText('This address is not public and cannot be reached')).toBeVisible();

    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description (optional)').fill('Leads to n8n');
    await page.getByLabel(/Message sent/).check();
    await page.getByRole('form', { name: 'Add endpoint' }).getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText('Endpoint added')).toBeVisible();
    await expect(page.getByText(url)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Chosen events' })).toContainText('Lead details captured');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByRole('region', { name: 'Deliveries' });
    await expect(log).toContainText('Delivered · HTTP 200', { timeout: 20_000 });
    await log.getByText('Request and answer').click();
    await expect(log).toContainText('This is a test event from Switchboard.');

    await log.getByRole('button', { name: 'Resend webhook.test' }).click();
    await expect(page.getByText('Event sent again')).toBeVisible();
    await expect(log.getByText('Delivered · HTTP 200')).toHaveCount(2, { timeout: 20_000 });
    expect(received).toHaveLength(2);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);

    // The shown secret verifies what the endpoint received, with the Standard Webhooks library.
    await page.getByRole('button', { name: 'Show secret' }).click();
    const secret = (await page.getByText(/^whsec_/).textContent()) ?? '';
    const event = new Webhook(secret).verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'webhook.test' });

    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect(page.getByText('Endpoint turned off')).toBeVisible();
    await expect(page.getByText(/^Off/)).toBeVisible();

    // Every event with its example payload, readable signed out and at phone width.
    await page.getByRole('link', { name: 'event reference' }).click();
    await expect(page).toHaveURL(/\/docs\/webhooks$/);
    await expect(page.getByRole('heading', { name: /Lead details captured/ })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await page.goto(`/${subaccountId}/ai-settings`);
    await expect(page.getByText(url)).toBeVisible();
    await expectAccessible(page);
    await page.evaluate(() => document.documentElement.classList.toggle('dark'));
    await expectAccessible(page);

    await page.getByRole('button', { name: `Delete ${url}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete endpoint' });
    await dialog.getByRole('textbox').fill('confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Endpoint deleted')).toBeVisible();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();
  } finally {
    receiver.close();
  }
});
