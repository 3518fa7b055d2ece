import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

const TOKEN = 'e2e-weather-token-4321';

interface McpStub {
  url: string;
  calls: { name: string; args: Record<string, unknown> }[];
  close(): Promise<void>;
}
/**
 * The real MCP server of the server tests (the SDK's own classes, stateless, tools get_weather and
 * always_fails) behind a bearer token, loaded by path (apps/server/src/testing).
 */
const MCP_STUB_MODULE = '../apps/server/src/testing/mcp-stub.ts';
const startWeatherServer = async () => {
  const { startMcpStub } = (await import(MCP_STUB_MODULE)) as {
    startMcpStub: (options: { token?: string }) => Promise<McpStub>;
  };
  return startMcpStub({ token: TOKEN });
};

const bothThemes = async (page: Page) => {
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [!wasDark, wasDark]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await expectAccessible(page);
  }
};

test('an agency adds an MCP server, enables one of its tools on an agent and sees it called in the test chat', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const weather = await startWeatherServer();
  let serverName = `Weather ${Date.now().toString(36)}`;
  try {
    await signIn(page, DEMO_USERS.admin);

    // An agent on the offline model.
    await page.getByLabel('Your agent idea').fill('A helper for Cloudy Coast tours that answers questions about trips');
    await page.getByLabel('Model that writes the draft').selectOption('offline::offline');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);
    const agentPath = new URL(page.url()).pathname;
    const agentId = agentPath.split('/').at(-1) ?? '';

    await page.goto('/integrations/mcp');
    await expect(page.getByRole('heading', { level: 1, name: 'MCP servers', exact: true })).toBeVisible();
    const form = page.getByRole('form', { name: 'Add an MCP server' });

    // An address inside the network that the setting does not list is refused, naming the field.
    await form.getByLabel('Name', { exact: true }).fill(serverName);
    await form.getByLabel('Server URL').fill('http://10.0.0.8/mcp');
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect(form.getByText('This address is not public and cannot be reached')).toBeVisible();

    // The local server, with its token in an Authorization header.
    await form.getByLabel('Server URL').fill(weather.url);
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 1 name').fill('Authorization');
    await form.getByLabel('Header 1 value').fill(`Bearer ${TOKEN}`);
    await form.getByRole('button', { name: 'Add server' }).click();

    const card = page.getByTestId('mcp-server').filter({ hasText: serverName });
    await expect(card.getByTestId('mcp-status')).toHaveText('Connected');
    await expect(card.getByText('Authorization: ••••4321')).toBeVisible();
    await expect(card).not.toContainText(TOKEN);
    await expect(card.getByTestId('mcp-tool')).toHaveCount(2);
    const tool = card.getByTestId('mcp-tool').filter({ hasText: 'GET_WEATHER' });
    await expect(tool).toContainText('Current weather of a city');
    await bothThemes(page);

    // Enable the weather tool on the agent.
    await tool.getByLabel('Enable GET_WEATHER on agent').selectOption(agentId);
    await tool.getByRole('button', { name: 'Enable on agent' }).click();
    await expect(tool.getByRole('button', { name: 'Enabled' })).toBeDisabled();

    // At phone width the page still fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card.getByTestId('mcp-status')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The agent calls the tool in its test chat, and the transcript shows the call.
    await page.goto(agentPath);
    const chat = page.getByLabel('Test chat', { exact: true });
    await chat.getByLabel('Test message').fill('What is the weather in Bristol today?');
    await chat.getByRole('button', { name: 'Send' }).click();
    const calls = chat.getByRole('list', { name: 'Tool calls' });
    await expect(calls).toContainText('GET_WEATHER');
    await expect(calls).toContainText('Sunny');
    expect(weather.calls.length).toBeGreaterThanOrEqual(1);

    // Rename it: the header left empty keeps its stored value, so the server stays connected.
    await page.goto('/integrations/mcp');
    await card.getByRole('button', { name: `Edit ${serverName}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${serverName}` });
    await expect(edit.getByLabel('Header 1 value')).toHaveAttribute('placeholder', 'Unchanged (••••4321)');
    serverName = `${serverName} (forecasts)`;
    await edit.getByLabel('Name', { exact: true }).fill(serverName);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${serverName}: 2 tools found`)).toBeVisible();
    const renamed = page.getByTestId('mcp-server').filter({ hasText: serverName });
    await expect(renamed.getByTestId('mcp-status')).toHaveText('Connected');

    // Rediscover, then delete with confirmation.
    await renamed.getByRole('button', { name: 'Rediscover' }).click();
    // The first discovery's toast of the same words may still be leaving.
    await expect(page.getByText(`${serverName}: 2 tools found`).last()).toBeVisible();
    await renamed.getByRole('button', { name: `Delete ${serverName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${serverName}?` });
    await dialog.getByLabel('Type confirm to delete').fill('confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('mcp-server').filter({ hasText: serverName })).toHaveCount(0);
  } finally {
    await weather.close();
  }
});
