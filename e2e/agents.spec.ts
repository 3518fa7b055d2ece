import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

const HANDBOOK = `# Harbor Dental handbook

## Whitening
Our in-office whitening session takes 90 minutes and brightens teeth by up to eight shades.

## Emergencies
For a dental emergency call the clinic line; we keep two emergency slots open every weekday.
`;

test('an agency creates an agent from an idea, gives it a document and asks about it', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await expect(page.getByRole('heading', { name: 'What should your agent do?' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Your agent idea').fill('A friendly receptionist for a dental clinic that books appointments');
  await expect(page.getByLabel('Model that writes the draft')).toHaveValue('offline::offline');
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByText('Designing your agent')).toBeVisible();
  await page.waitForURL(/\/agents\/agt_[a-z0-9]+$/);

  await expect(page.getByRole('heading', { name: 'Dental Clinic Receptionist' })).toBeVisible();
  await expect(
    page.getByText('Drafted by the offline model. Review the instructions before going live.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Can I book an appointment?' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'First message', exact: true })).toHaveValue(
    /^Hello, and welcome! I'm the receptionist here\./,
  );
  await expect(page.getByText('Agent ID:')).toBeVisible();
  await expect(page.getByLabel('Instructions (system prompt)')).toHaveValue(/dental clinic/);
  // Readable in both themes.
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [!wasDark, wasDark]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await expectAccessible(page);
  }

  // Refused uploads say why and store nothing.
  const fileInput = page.getByLabel('Upload a document');
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain text') });
  await expect(page.getByText('Unsupported file type')).toBeVisible();
  await fileInput.setInputFiles({ name: 'notes..md', mimeType: 'text/markdown', buffer: Buffer.from('# x') });
  await expect(page.getByText('Invalid file name')).toBeVisible();
  await expect(page.getByText('No documents yet.')).toBeVisible();

  await fileInput.setInputFiles({ name: 'handbook.md', mimeType: 'text/markdown', buffer: Buffer.from(HANDBOOK) });
  await expect(page.getByRole('list', { name: 'Documents' }).getByText('handbook.md')).toBeVisible();

  await page.getByLabel('Test message').fill('How long does a whitening session take?');
  await page.getByRole('button', { name: 'Send' }).click();
  const log = page.getByRole('log');
  await expect(log).toContainText('90 minutes');
  await expect(log.getByText('Offline model')).toBeVisible();
  await log.getByText(/Sources \(\d\)/).click();
  await expect(log.getByRole('list', { name: 'Sources' })).toContainText('handbook.md');

  // Out-of-range settings get a field error and are not saved.
  await page.getByLabel('Temperature').fill('5');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('At most 2')).toBeVisible();
  await page.getByLabel('Temperature').fill('0.4');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Agent saved')).toBeVisible();

  // The agent is listed, and the page works at mobile width.
  await page.goto('/agents');
  await expect(page.getByRole('link', { name: 'Dental Clinic Receptionist', exact: true })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  expect(overflow).toBe(false);
});

test('an API key calls an agent through the OpenAI-compatible API', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/apitester');
  await page.getByLabel('Key name').fill('E2E key');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('new-api-key')).toHaveText(/^sk_sb_/);
  await expectAccessible(page);
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('tester-response')).toContainText('HTTP 200');
  await expect(page.getByTestId('tester-response')).toContainText('chat.completion');
  await page.getByRole('button', { name: 'Revoke E2E key' }).click();
  await expect(page.getByRole('list', { name: 'API keys' }).getByText('Revoked', { exact: true })).toBeVisible();
});

test('an admin sees the AI providers on Settings and a key that cannot be checked is refused', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const accounts = (await (await page.request.get('/api/accounts')).json()) as {
    accounts: { subaccounts: { id: string }[] }[];
  };
  const subaccountId = accounts.accounts[0]?.subaccounts[0]?.id ?? '';
  await page.goto(`/${subaccountId}/ai-settings`);
  await expect(page.getByRole('heading', { name: 'AI providers' })).toBeVisible();
  await expect(page.getByText('Offline model', { exact: false }).first()).toBeVisible();
  const openai = page.locator('form', { has: page.getByRole('heading', { name: 'OpenAI', exact: true }) });
  await openai.getByLabel('API key').fill('sk-test-e2e');
  await openai.getByRole('button', { name: 'Test and save' }).click();
  await expect(openai.getByRole('alert')).toBeVisible();
  await expect(openai.getByText('Not connected')).toBeVisible();
  await expectAccessible(page);
});

test('tool inputs use the dynamic fields and refuse a bad timezone', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/agents');
  const href = await page.getByRole('link', { name: 'Sunrise Solar Assistant', exact: true }).getAttribute('href');
  await page.goto(href ?? '/agents');
  await expect(page.getByRole('heading', { name: 'Sunrise Solar Assistant' })).toBeVisible();
  await page.getByRole('button', { name: 'Add tool' }).click();
  await page.getByLabel('Tool name').fill('book_assessment');
  await page.getByLabel('URL').fill('https://example.com/book');
  await page.getByLabel('Input schema (JSON schema)').fill(
    JSON.stringify({
      type: 'object',
      properties: {
        user_timezone: { type: 'string', description: 'Where the homeowner lives' },
        roof_size: { type: 'integer', minimum: 10, maximum: 500 },
      },
      required: ['user_timezone'],
    }),
  );
  await expect(page.getByLabel(/^User timezone/)).toHaveValue('Determined by model');
  await expect(page.getByLabel(/^Roof size/)).toBeDisabled();
  await page.getByRole('button', { name: 'Set User timezone manually' }).click();
  await page.getByLabel(/^User timezone/).fill('UTC+15');
  await expect(page.getByText('Timezone offset must be between UTC-12 and UTC+14').first()).toBeVisible();
  await page.getByRole('button', { name: 'Save tools' }).click();
  await expect(page.getByText('Timezone offset must be between UTC-12 and UTC+14').first()).toBeVisible();
  await page.getByLabel(/^User timezone/).fill('UTC+5:30');
  await page.getByRole('button', { name: 'Set Roof size manually' }).click();
  await expect(page.getByRole('slider')).toHaveValue('10');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save tools' }).click();
  await expect(page.getByText('Tools saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('group', { name: /book_assessment/ })).toBeVisible();
  await expect(page.getByLabel(/^User timezone/)).toHaveValue('UTC+5:30');

  // The agent page and New Agent work at mobile width.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [page.url(), '/agents/create']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await expectAccessible(page);
  }
});
