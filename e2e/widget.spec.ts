import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn, subaccountIdOf } from './support';
import { addAgent, copyEmbedCode, saveAndDeploy, startHostSite, visitorPage } from './widget-support';

test('an agency designs and deploys a widget; a visitor on another site chats and a person takes over', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const host = await startHostSite();
  try {
    await signIn(page, DEMO_USERS.admin);
    const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
    const connectionId = await addAgent(page, subaccountId, 'Sunrise Solar Assistant', 'Website Widget');

    // Design: colour, placement, first message, popup delay.
    await expect(page.getByText(`ID: ${connectionId}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
    await page.getByRole('button', { name: 'Red', exact: true }).click();
    await page.getByRole('radio', { name: 'Bottom left' }).click();
    await page.getByLabel('First message text').fill('Welcome to Sunrise! Ask me anything.');
    await page.getByLabel('Popup delay (seconds)').fill('1');
    await page.getByLabel('Popup delay (seconds)').blur();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    const preview = page.getByLabel('Live Preview');
    await preview.getByRole('button', { name: 'Open preview' }).click();
    await expect(preview.getByText('Welcome to Sunrise! Ask me anything.')).toBeVisible();
    await expect(preview.getByRole('button', { name: 'Send preview message' })).toBeDisabled();
    await preview.getByRole('textbox', { name: 'Preview message' }).fill('Do you install panels?');
    await preview.getByRole('button', { name: 'Send preview message' }).click();
    await expect(preview.locator('p').filter({ hasText: /.{10,}/ })).toHaveCount(3, { timeout: 20_000 });
    await expectAccessible(page);
    await saveAndDeploy(page);
    const code = await copyEmbedCode(page);
    expect(code).toMatch(
      /^<script src="http:\/\/localhost:\d+\/widget\/wgt_[a-z0-9]+\/widget\.js" async fetchpriority="high"><\/script>$/,
    );

    // The agency watches the inbox while the visitor chats.
    await page.goto(`/${connectionId}/conversations`);
    await expect(page.getByText('No conversations yet. They appear here live as visitors chat.')).toBeVisible();

    // A visitor on another origin: launcher in the chosen corner, bubble after its delay, chips, streamed reply.
    host.setBody(code);
    const visitor = await visitorPage(browser, { viewport: { width: 1280, height: 800 } });
    await visitor.goto(host.origin);
    const launcher = visitor.getByRole('button', { name: /^Open chat/ });
    await expect(launcher).toBeVisible();
    const box = await launcher.boundingBox();
    expect(box && box.x < 120 && box.y > 800 - 140).toBe(true);
    await expect(visitor.getByText('Hi there! Need any help?')).toBeVisible({ timeout: 5000 });
    await launcher.click();
    const chat = visitor.frameLocator('iframe[title="Sunrise Solar Assistant"]');
    await expect(chat.getByText('Welcome to Sunrise! Ask me anything.')).toBeVisible();
    await expect(chat.getByRole('button', { name: 'Do you offer financing?' })).toBeVisible();
    await expectAccessible(visitor);
    const streamed = visitor.waitForResponse((response) => response.url().endsWith('/chat'));
    await chat.getByRole('button', { name: 'Do you offer financing?' }).click();
    expect((await streamed).headers()['content-type']).toContain('text/event-stream');
    await expect(chat.locator('.row.agent .bub')).toHaveCount(2, { timeout: 20_000 });
    await expect(chat.getByRole('button', { name: 'Do you offer financing?' })).toHaveCount(0);

    // The conversation appears live in the inbox; a person takes over and the visitor sees the reply.
    await expect(page.getByRole('list', { name: 'Conversations' }).getByText(/preview_/)).toBeVisible();
    await page.getByRole('button', { name: 'Take over' }).click();
    await expect(page.getByText('A person is answering; the agent stays silent.')).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Reply to the visitor').fill('Hi, this is Avery from Sunrise.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(chat.getByText('Hi, this is Avery from Sunrise.')).toBeVisible();

    // The conversation becomes a replayable test case of a new template, its answer the reference.
    await page.getByRole('button', { name: 'Add to test set' }).click();
    const testSet = page.getByRole('dialog', { name: 'Add to test set' });
    await testSet.getByLabel('New template name').fill('From the inbox');
    await testSet.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(testSet.getByRole('status')).toContainText('Added to From the inbox');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(testSet).toBeHidden();

    // HTML in a message is shown as text.
    await chat.getByRole('textbox').fill('<b>bold?</b><img src=x onerror="window.hacked=1">');
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(chat.getByText('<b>bold?</b><img src=x onerror="window.hacked=1">')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Transcript' }).getByText('<b>bold?</b>', { exact: false }),
    ).toBeVisible();

    // New Conversation starts fresh with the greeting and chips.
    await chat.getByRole('button', { name: 'Conversation menu' }).click();
    await chat.getByRole('menuitem', { name: 'New Conversation' }).click();
    await expect(chat.getByRole('button', { name: 'How much can I save with solar?' })).toBeVisible();

    // After a reload the widget reopens, and Previous Conversations lists the earlier chat.
    await visitor.reload();
    await expect(chat.getByRole('button', { name: 'Conversation menu' })).toBeVisible();
    await chat.getByRole('button', { name: 'Conversation menu' }).click();
    await chat.getByRole('menuitem', { name: 'Previous Conversations' }).click();
    const saved = chat.getByRole('list').getByRole('listitem');
    await expect(saved).toHaveCount(1);
    await saved.first().getByRole('button').first().click();
    await expect(chat.getByText('Hi, this is Avery from Sunrise.')).toBeVisible();

    // A language switch reaches the live embed after Deploy.
    await page.goto(`/${connectionId}/website-widget`);
    await page.getByLabel('Language', { exact: true }).selectOption('es');
    await saveAndDeploy(page);
    await visitor.reload();
    await chat.getByRole('button', { name: 'Conversation menu' }).click();
    await expect(chat.getByRole('menuitem', { name: 'Nueva conversación' })).toBeVisible();
    await expect(chat.getByRole('textbox')).toHaveAttribute('placeholder', 'Escribe tu mensaje...');

    // Mobile: full screen, the page behind does not scroll.
    const phone = await visitorPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(host.origin);
    await phone.getByRole('button', { name: /^Open chat/ }).click();
    const frame = phone.locator('iframe');
    await expect(frame).toBeVisible();
    const frameBox = await frame.boundingBox();
    expect(frameBox?.width).toBe(390);
    expect(Math.round(frameBox?.height ?? 0)).toBeGreaterThan(800);
    expect(await phone.evaluate(() => document.body.style.overflow)).toBe('hidden');
    const phoneChat = phone.frameLocator('iframe');
    await phoneChat.getByRole('button', { name: 'Close chat' }).click();
    await expect(frame).toBeHidden();
    expect(await phone.evaluate(() => document.body.style.overflow)).toBe('');
    expect(await visitor.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  } finally {
    host.server.close();
  }
});

test('bad input is refused with its message, and the widget shows clear errors', async ({ page, browser, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const host = await startHostSite();
  try {
    await signIn(page, DEMO_USERS.admin);
    const subaccountId = await subaccountIdOf(page, 'Harbor Dental');
    const connectionId = await addAgent(page, subaccountId, 'Harbor Dental Receptionist', 'Website Widget');

    // Every setting out of range is refused by the server with its message and field.
    const cases: [Record<string, unknown>, string][] = [
      [{ width: 299 }, 'Width must be between 300 and 600 px'],
      [{ height: 701 }, 'Height must be between 300 and 700 px'],
      [{ logoWidth: 49 }, 'Logo width must be between 50 and 300 px'],
      [{ chatBubble: { delaySeconds: 501 } }, 'Popup delay must be between 1 and 500 seconds'],
      [{ dailyLimit: 0 }, 'Daily limit must be between 1 and 1000000 messages'],
      [{ logoUrl: 'not a url' }, 'Invalid image URL. Please enter a valid image URL.'],
      [{ logoCropPosition: { x: 151, y: 50 } }, 'Position must be between -50 and 150 percent'],
      [{ logoScale: 3.5 }, 'Scale must be between 0.5 and 3'],
    ];
    for (const [settings, message] of cases) {
      const response = await page.request.put(`/api/connections/${connectionId}`, { data: { settings } });
      expect(response.status()).toBe(422);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    }

    // The designer: an out-of-range size falls back; a URL that is not an image is refused.
    await page.getByLabel('Width', { exact: true }).fill('900');
    await page.getByRole('button', { name: 'Apply size' }).click();
    await expect(page.getByLabel('Width', { exact: true })).toHaveValue('400');
    await expect(page.getByText('Out of range: the current value was kept.')).toBeVisible();
    await page.getByLabel('Logo URL').fill(`${host.origin}/not-an-image`);
    await page.getByRole('button', { name: 'Use logo' }).click();
    await expect(page.getByText('Invalid image URL. Please enter a valid image URL.')).toBeVisible();

    // The logo dialog: drag with guides, scale, apply with a check mark, reset.
    await page.getByLabel('Logo URL').fill(new URL('/favicon.svg', page.url()).toString());
    await page.getByRole('button', { name: 'Use logo' }).click();
    await page.getByRole('button', { name: 'Adjust position & scale' }).click();
    const dialog = page.getByRole('dialog', { name: 'Logo Position & Scale' });
    await expect(dialog.getByText('This is how your logo will appear as chat avatar')).toBeVisible();
    const area = dialog.getByRole('application', { name: 'Drag to position the logo' });
    const areaBox = await area.boundingBox();
    if (!areaBox) throw new Error('no drag area');
    await page.mouse.move(areaBox.x + areaBox.width / 2, areaBox.y + areaBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(areaBox.x + areaBox.width * 0.25, areaBox.y + areaBox.height * 0.75, { steps: 5 });
    await page.mouse.up();
    await expect(dialog.getByRole('status', { name: 'Position' })).toHaveText('Position: X 25% · Y 75%');
    await dialog.getByLabel(/^Scale/).fill('2');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog.getByRole('tab', { name: 'Chat Avatar (applied)' })).toBeVisible();
    await dialog.getByRole('tab', { name: /Widget Header/ }).click();
    await expect(dialog.getByText('This is how your logo will appear in widget header')).toBeVisible();
    await dialog.getByRole('tab', { name: /Chat Avatar/ }).click();
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await expect(dialog.getByRole('status', { name: 'Position' })).toHaveText('Position: X 50% · Y 50%');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Allowed domains and the daily limit reach the live widget after Deploy.
    await page.getByLabel('Allowed domains').fill('shop.example.com');
    await saveAndDeploy(page);
    const code = await copyEmbedCode(page);
    host.setBody(code);
    // A site that is not allowed gets no launcher, only a console warning, and cannot frame the chat.
    const visitor = await visitorPage(browser);
    const warnings: string[] = [];
    visitor.on('console', (message) => warnings.push(message.text()));
    await visitor.goto(host.origin);
    await expect.poll(() => warnings.join('\n')).toContain('This website is not allowed to use this chat widget');
    await expect(visitor.getByRole('button', { name: /^Open chat/ })).toHaveCount(0);
    // Framed by hand, the chat app never starts there (frame-ancestors): no 'ready' message arrives.
    const framedReady = await visitor.evaluate(
      async (src) => {
        let ready = false;
        window.addEventListener('message', (event) => {
          if ((event.data as { type?: string } | null)?.type === 'ready') ready = true;
        });
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        return ready;
      },
      code.match(/src="([^"]+)\/widget(?:-professional)?\.js"/)?.[1] ?? '',
    );
    expect(framedReady).toBe(false);

    await page.getByLabel('Allowed domains').fill('');
    await page.getByLabel('Daily message limit').fill('1');
    await page.getByLabel('Daily message limit').blur();
    await saveAndDeploy(page);
    await visitor.reload();
    await visitor.getByRole('button', { name: /^Open chat/ }).click();
    const chat = visitor.frameLocator('iframe');
    await chat.getByRole('textbox').fill('One');
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(chat.locator('.row.agent .bub')).toHaveCount(2, { timeout: 20_000 });
    await chat.getByRole('textbox').fill('Two');
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(
      chat.getByText(
        "Sorry, I'm having trouble connecting. (Error: This chat has reached its daily message limit. Please try again tomorrow.)",
      ),
    ).toBeVisible();

    // The designer in the light theme at phone width.
    await page.request.patch(`/api/subaccounts/${subaccountId}/theme`, { data: { isDarkMode: false } });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Live Preview' })).toBeVisible();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.waitForTimeout(500); // colour transitions of the theme switch
    await expectAccessible(page);

    const unknown = await page.request.post('/api/widget/wgt_doesnotexist/chat', {
      data: { message: 'hi', contactIdentifier: 'preview_x' },
    });
    expect(unknown.status()).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('Widget not found');
  } finally {
    host.server.close();
  }
});

test('a viewer sees the designer but cannot save', async ({ page }) => {
  await signIn(page, DEMO_USERS.viewer);
  const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
  await page.goto(`/${subaccountId}/website-widget`);
  await page.waitForURL(/\/con_[a-z0-9]+\/website-widget$/);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expect(page.getByText('Viewers cannot save changes')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete widget' })).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Live Preview' })).toBeVisible();
  await expectAccessible(page);
});

test('a website block shows the same chat inline in the page, with its own embed code', async ({
  page,
  browser,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const host = await startHostSite();
  try {
    await signIn(page, DEMO_USERS.admin);
    const subaccountId = await subaccountIdOf(page, 'Sunrise Solar');
    await addAgent(page, subaccountId, 'Sunrise Solar Assistant', 'Website Block');
    await expect(page).toHaveURL(/\/website-block$/);
    await expect(page.getByRole('radiogroup', { name: 'Widget Placement' })).toHaveCount(0);
    await page.getByLabel('Widget title').fill('Ask Sunrise');
    await page.getByRole('radio', { name: 'Light' }).click();
    await page.getByRole('button', { name: 'Amber', exact: true }).click();
    await saveAndDeploy(page);
    const code = await copyEmbedCode(page);
    await page.getByRole('tab', { name: 'Iframe' }).click();
    expect(await page.getByLabel('Embed code').inputValue()).toMatch(
      /^<iframe src="http:\/\/localhost:\d+\/widget\/wgt_/,
    );

    host.setBody(`<section id="help"><h2>Questions?</h2>${code}</section>`);
    const visitor = await visitorPage(browser);
    await visitor.goto(host.origin);
    const frame = visitor.locator('#help iframe');
    await expect(frame).toBeVisible();
    const chat = visitor.frameLocator('#help iframe');
    await expect(chat.getByRole('heading', { name: 'Ask Sunrise' })).toBeVisible();
    await expect(chat.getByRole('button', { name: 'Close chat' })).toHaveCount(0);
    await chat.getByRole('textbox').fill('Do you offer financing?');
    await chat.getByRole('textbox').press('Enter');
    await expect(chat.locator('.row.agent .bub')).toHaveCount(2, { timeout: 20_000 });
    await expect(visitor.getByRole('button', { name: /^Open chat/ })).toHaveCount(0);
    await expectAccessible(visitor);

    // Deleting the block (after typing confirm) stops its embed at once.
    const widgetId = /wgt_[a-z0-9]+/.exec(code)?.[0] as string;
    const connectionPath = new URL(page.url()).pathname;
    expect((await page.request.get(`/widget/${widgetId}/widget.js`)).status()).toBe(200);
    await page.getByRole('button', { name: 'Delete website block' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete website block' });
    await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await confirm.getByLabel('Type confirm to delete').fill('confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Widget deleted')).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(connectionPath));
    expect((await page.request.get(`/widget/${widgetId}/widget.js`)).status()).toBe(404);
  } finally {
    host.server.close();
  }
});
