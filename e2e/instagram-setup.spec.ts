import { createHmac } from 'node:crypto';
import {
  type GraphStub,
  startGraphStub,
  TEST_META_APP_SECRET,
  TEST_PLATFORM_APP_SECRET,
} from '../apps/server/src/testing/graph-stub';
import { expect, test } from './fixtures';
import { CHANNELS_CLINIC, DEMO_USERS, expectAccessible, ownSubaccount, signIn } from './support';

const GALLERY = {
  pageId: '100000000000077',
  name: 'Gallery Page',
  instagramAccountId: '17841400000000077',
  username: 'gallery.example',
};
const GALLERY_TOKEN = `EAAG${'g'.repeat(40)}`;
const VISITOR = '1790000000000123';

let graph: GraphStub;

test.beforeAll(async ({ baseURL }) => {
  // Meta's Graph API: a stand-in on the port e2e/serve.mjs gives the server (META_GRAPH_URL).
  graph = await startGraphStub(
    [TEST_META_APP_SECRET, TEST_PLATFORM_APP_SECRET],
    Number(new URL(baseURL ?? 'http://localhost:3199').port) + 1002,
  );
  graph.oauthPages.push({ token: GALLERY_TOKEN, page: GALLERY });
  graph.profiles.set(VISITOR, { username: 'mara.paints', name: 'Mara Quinn' });
});
test.afterAll(() => graph.close());

/**
 * Instagram's real setup against Meta's stand-in: "Connect with Meta" shares two Instagram
 * accounts, the agency picks one, its page is subscribed to the app's webhooks, and a direct
 * message from a person shows their username and name in the inbox, not a scoped id.
 */
test('an agency connects Instagram with Meta, picks the account, and sees who wrote', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.admin);
  const subaccountId = await ownSubaccount(page, CHANNELS_CLINIC);
  await page.goto(`/${subaccountId}/link3`);
  await expect(page.getByRole('heading', { name: 'Connect the Instagram Agent' })).toBeVisible();
  await page.getByLabel('Agent', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('radio', { name: /Connect with Meta/ }).check();

  // Meta's dialog: the person signs in there and Meta sends them back with a code.
  await page.route('https://www.facebook.com/**', async (route) => {
    const dialog = new URL(route.request().url());
    const back = new URL(dialog.searchParams.get('redirect_uri') ?? '');
    back.searchParams.set('code', 'good-code');
    back.searchParams.set('state', dialog.searchParams.get('state') ?? '');
    await route.fulfill({ status: 302, headers: { location: back.href } });
  });
  await page.getByRole('button', { name: 'Continue with Meta' }).click();

  // Two pages have an Instagram account: nothing is taken silently, the agency picks one.
  const picker = page.getByRole('form', { name: 'Choose the Instagram account' });
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('radio', { name: /@studio\.example/ })).toBeVisible();
  expect(graph.subscribed).toEqual([]);
  await expectAccessible(page);
  await picker.getByRole('radio', { name: /@gallery\.example/ }).check();
  await picker.getByRole('button', { name: 'Connect this account' }).click();
  await expect(picker).toHaveCount(0);
  // The picked page is subscribed to the app's messaging webhooks.
  await expect.poll(() => graph.subscribed).toEqual([GALLERY.pageId]);
  expect(graph.subscribedFields.get(GALLERY.pageId)).toEqual(expect.arrayContaining(['messages']));

  // A person writes to the account: Meta calls the platform app's webhook, signed with its secret.
  const raw = JSON.stringify({
    object: 'instagram',
    entry: [
      {
        id: GALLERY.instagramAccountId,
        time: Date.now(),
        messaging: [
          {
            sender: { id: VISITOR },
            recipient: { id: GALLERY.instagramAccountId },
            timestamp: Date.now(),
            message: { mid: 'm_journey_1', text: 'Do you whiten teeth on Saturdays?' },
          },
        ],
      },
    ],
  });
  const delivered = await page.request.post('/api/webhooks/meta/app', {
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', TEST_PLATFORM_APP_SECRET).update(raw).digest('hex')}`,
    },
    data: raw,
  });
  expect(delivered.status()).toBe(200);
  // The agent answers through Graph.
  await expect.poll(() => graph.messages.map((message) => message.recipient), { timeout: 20_000 }).toContain(VISITOR);

  // The inbox names the person by their Instagram profile, not the scoped id.
  await page
    .getByRole('navigation', { name: 'Instagram Agent sections' })
    .getByRole('button', { name: 'Conversations', exact: true })
    .click();
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByText(/mara\.paints/)).toBeVisible({ timeout: 20_000 });
  await expect(list.getByText(VISITOR)).toHaveCount(0);
  await list.getByRole('button', { name: /mara\.paints/ }).click();
  await expect(
    page.getByRole('list', { name: 'Transcript' }).getByText('Do you whiten teeth on Saturdays?'),
  ).toBeVisible();
  await expectAccessible(page);
});
