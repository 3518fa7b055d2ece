import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Steps shared by the journeys that put an agent on a website and chat with it as a visitor. */

/** A plain HTML page on another origin that holds only the copied embed code. */
export const startHostSite = async (): Promise<{ server: Server; setBody: (html: string) => void; origin: string }> => {
  let body = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Client site</title></head><body><main><h1>Sunrise Solar</h1><p>Plain page.</p></main>${body}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, setBody: (html) => (body = html), origin: `http://127.0.0.1:${port}` };
};

/** Adds the agent (its name, or its agt_ id) to a channel through the Add agent page; returns the connection id. */
export const addAgent = async (
  page: Page,
  subaccountId: string,
  agent: string,
  channel: 'Website Widget' | 'Website Block',
) => {
  await page.goto(`/${subaccountId}/add-agent`);
  await page.getByRole('button', { name: 'Add agent', exact: true }).last().click();
  await expect(page.getByText('Pick an agent')).toBeVisible();
  await page.getByLabel('Agent', { exact: true }).selectOption(agent.startsWith('agt_') ? agent : { label: agent });
  await page.getByRole('radio', { name: new RegExp(channel) }).check();
  await page.getByRole('button', { name: 'Add agent', exact: true }).last().click();
  await page.waitForURL(/\/con_[a-z0-9]+\/website-(widget|block)$/);
  return new URL(page.url()).pathname.split('/')[1] as string;
};

export const saveAndDeploy = async (page: Page) => {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved successfully!')).toBeVisible();
  await page.getByRole('button', { name: 'Redeploy Required' }).click();
  await expect(page.getByText('Widget deployed successfully!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deploy', exact: true })).toBeVisible();
};

export const copyEmbedCode = async (page: Page) => {
  await page.getByRole('button', { name: 'Copy code' }).click();
  await expect(page.getByText('Code copied to clipboard!')).toBeVisible();
  return page.getByLabel('Embed code').inputValue();
};

export const visitorPage = async (browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) => {
  const context = await browser.newContext(options);
  return context.newPage();
};
