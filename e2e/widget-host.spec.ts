import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, signIn } from './support';

type Shape = 'html' | 'react' | 'wordpress' | 'shopify' | 'webflow';

/**
 * Client sites of each shape the embed card has a snippet for, on another origin: the script where
 * that platform puts it (head, inserted by a framework after load, WordPress's footer, Shopify's
 * theme head, Webflow's footer code).
 */
const pageOf = (shape: Shape, src: string) => {
  const head = {
    html: `<script src="${src}" async fetchpriority="high"></script>`,
    shopify: `<link rel="stylesheet" href="data:text/css,"><script src="${src}" defer></script>`,
    react: '',
    wordpress: '',
    webflow: '',
  }[shape];
  const end = {
    html: '',
    shopify: '',
    // next/script strategy="afterInteractive": the framework inserts the script after hydration.
    react: `<div id="__next"><h2>Shop</h2></div><script>window.addEventListener('load',function(){var s=document.createElement('script');s.src=${JSON.stringify(src)};s.async=true;document.head.appendChild(s);});</script>`,
    wordpress: `<div class="wp-site-blocks"><p>Posts</p></div><script src="${src}" id="switchboard-widget-js" async data-wp-strategy="async"></script>`,
    webflow: `<div class="w-container"><p>Webflow</p></div><script src="${src}" async></script>`,
  }[shape];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${shape} site</title>${head}</head><body><main><h1>Harbor Dental (${shape})</h1></main>${end}</body></html>`;
};

const startSites = async (src: string): Promise<{ server: Server; origin: string }> => {
  const server = createServer((request, response) => {
    const shape = (request.url ?? '/').slice(1) as Shape;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(pageOf(shape, src));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

const harborWidget = async (page: Page) => {
  const accounts = (await (await page.request.get('/api/accounts')).json()) as {
    accounts: { subaccounts: { id: string; name: string }[] }[];
  };
  const subaccountId = accounts.accounts.flatMap((a) => a.subaccounts).find((s) => s.name === 'Harbor Dental')?.id;
  const listed = (await (
    await page.request.get(`/api/subaccounts/${subaccountId}/connections?type=website-widget`)
  ).json()) as { connections: { connectionId: string; widgetId: string }[] };
  if (listed.connections[0]) return listed.connections[0];
  const builds = (await (
    await page.request.get('/api/builds', { headers: { 'x-subaccount-id': subaccountId ?? '' } })
  ).json()) as {
    builds: { buildId: string }[];
  };
  const created = await page.request.post('/api/connections', {
    data: { subaccountId, buildId: builds.builds[0]?.buildId, type: 'website-widget' },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { connectionId: string; widgetId: string };
};

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: string[] }).__events);

test('the host API and postMessage commands work on sites of every shape, on another origin', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO_USERS.admin);
  const { connectionId, widgetId } = await harborWidget(page);
  const secret = (
    (await (await page.request.get(`/api/connections/${connectionId}/identity-secret`)).json()) as {
      secret: string;
    }
  ).secret;
  const widgetOrigin = new URL(baseURL ?? '').origin;
  const sites = await startSites(`${widgetOrigin}/widget/${widgetId}/widget.js`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    for (const shape of ['html', 'react', 'wordpress', 'shopify', 'webflow'] as Shape[]) {
      const visitor = await context.newPage();
      await visitor.goto(`${sites.origin}/${shape}`);
      const launcher = visitor.getByRole('button', { name: /^Open chat/ });
      await expect(launcher, shape).toBeVisible();
      await visitor.waitForFunction(() => 'Switchboard' in window);
      await visitor.evaluate(() => {
        const w = window as unknown as { __events: string[]; Switchboard: { on: (n: string, f: () => void) => void } };
        w.__events = [];
        for (const name of ['ready', 'open', 'close', 'message']) w.Switchboard.on(name, () => w.__events.push(name));
      });
      const frame = visitor.locator('iframe');

      // The API.
      await visitor.evaluate(() => (window as unknown as { Switchboard: { open(): void } }).Switchboard.open());
      await expect(frame, shape).toBeVisible();
      const chat = visitor.frameLocator('iframe');
      await expect(chat.getByRole('textbox'), shape).toBeVisible();
      await visitor.evaluate(() => (window as unknown as { Switchboard: { toggle(): void } }).Switchboard.toggle());
      await expect(frame, shape).toBeHidden();

      // The page's own postMessage commands: no blank box, and open shows the chat.
      await visitor.evaluate(() => window.postMessage({ source: 'switchboard-host', type: 'open' }, '*'));
      await expect(chat.getByRole('textbox'), shape).toBeVisible();
      await visitor.evaluate(() => window.postMessage({ source: 'switchboard-host', type: 'close' }, '*'));
      await expect(frame, shape).toBeHidden();
      await expect(launcher).toBeVisible();

      // A command sent straight to the frame: the frame reports it and the page's box follows.
      await visitor.evaluate(() => window.postMessage({ source: 'switchboard-host', type: 'open' }, '*'));
      await expect(frame).toBeVisible();
      await visitor.evaluate((origin) => {
        const host = Array.from(document.querySelectorAll('*')).find((element) =>
          element.shadowRoot?.querySelector('iframe'),
        );
        const iframe = host?.shadowRoot?.querySelector('iframe') as HTMLIFrameElement;
        iframe.contentWindow?.postMessage({ source: 'switchboard-host', type: 'close' }, origin);
      }, widgetOrigin);
      await expect(frame, `${shape}: closed from inside leaves no blank box`).toBeHidden();
      await expect.poll(() => events(visitor)).toEqual(expect.arrayContaining(['ready', 'open', 'close']));
      await visitor.close();
    }

    // identify (verified by the HMAC of the user id), setContext, and message events.
    const visitor = await context.newPage();
    await visitor.goto(`${sites.origin}/html`);
    await visitor.waitForFunction(() => 'Switchboard' in window);
    const hmac = createHmac('sha256', secret).update('user_42').digest('hex');
    await visitor.evaluate((signature) => {
      const w = window as unknown as {
        __messages: { role: string; content: string }[];
        Switchboard: {
          on: (n: string, f: (m: { role: string; content: string }) => void) => void;
          identify: (u: object, h: string) => void;
          setContext: (c: object) => void;
          open: () => void;
        };
      };
      w.__messages = [];
      w.Switchboard.on('message', (m) => w.__messages.push(m));
      w.Switchboard.identify({ id: 'user_42', name: 'Ada', email: 'ada@example.com' }, signature);
      w.Switchboard.setContext({ page: '/pricing', plan: 'gold' });
      w.Switchboard.open();
    }, hmac);
    const chat = visitor.frameLocator('iframe');
    const reply = visitor.waitForResponse((response) => response.url().includes(`/api/widget/${widgetId}/chat`));
    await chat.getByRole('textbox').fill('What are your opening hours?');
    await chat.getByRole('button', { name: 'Send message' }).click();
    const answered = await reply;
    expect(answered.status()).toBe(200);
    const sent = answered.request().postDataJSON() as { identity: { id: string; hmac: string }; context: object };
    expect(sent.identity).toMatchObject({ id: 'user_42', hmac });
    expect(sent.context).toEqual({ page: '/pricing', plan: 'gold' });
    await expect
      .poll(() =>
        visitor.evaluate(() => (window as unknown as { __messages: { role: string }[] }).__messages.map((m) => m.role)),
      )
      .toEqual(expect.arrayContaining(['user', 'agent']));

    // A forged identity is refused, with the reason shown.
    await visitor.evaluate(() =>
      (window as unknown as { Switchboard: { identify: (u: object, h: string) => void } }).Switchboard.identify(
        { id: 'user_43' },
        'a'.repeat(64),
      ),
    );
    await chat.getByRole('textbox').fill('Who am I?');
    await chat.getByRole('button', { name: 'Send message' }).click();
    await expect(chat.getByText(/not signed with this widget's secret/)).toBeVisible();
  } finally {
    await context.close();
    sites.server.close();
  }
});

test('the embed card offers a snippet for each kind of site and the identity secret to admins', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const { connectionId } = await harborWidget(page);
  await page.goto(`/${connectionId}/website-widget`);
  const code = page.getByRole('textbox', { name: 'Embed code' });
  for (const [tab, text] of [
    ['HTML', '<script src='],
    ['React / Next.js', 'strategy="afterInteractive"'],
    ['WordPress', 'wp_enqueue_script'],
    ['Shopify', ' defer></script>'],
    ['Webflow', ' async></script>'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(code).toHaveValue(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  await page.getByText('JavaScript API: open, close, identify, events').click();
  await page.getByRole('button', { name: 'Show identity secret' }).click();
  await expect(page.getByTestId('identity-secret')).toHaveText(/^[0-9a-f]{64}$/);
});
