/**
 * A local HTTP stand-in for the parts of Meta's Graph API the Instagram adapter uses, for tests and
 * the e2e server: the real adapter talks to it through META_GRAPH_URL over a socket. It checks the
 * bearer token and appsecret_proof like Graph, answers Graph's error bodies, and records the sends.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubPage {
  pageId: string;
  name: string;
  instagramAccountId: string;
  username: string;
}

export interface GraphSentMessage {
  id: string;
  recipient: string;
  text: string | null;
  token: string;
}

export interface GraphStub {
  /** The base URL with the version, as META_GRAPH_URL. */
  url: string;
  /** Accepted page tokens → the page they belong to. */
  pages: Map<string, StubPage>;
  messages: GraphSentMessage[];
  requests: { method: string; path: string }[];
  subscribed: string[];
  /** The subscribed_fields of each page's last subscription. */
  subscribedFields: Map<string, string[]>;
  /** Instagram-scoped ids → their user profile (GET /{igsid}); an unknown id is refused as Graph does. */
  profiles: Map<string, { username?: string; name?: string }>;
  /** Extra pages "Connect with Meta" shares (GET /me/accounts), each with its token. */
  oauthPages: { token: string; page: StubPage }[];
  /** The next subscriptions fail with these answers. */
  failSubscribe(...answers: { status: number; code: number; subcode?: number; message?: string }[]): void;
  failNext(...answers: { status: number; code: number; subcode?: number; message?: string }[]): void;
  close(): Promise<void>;
}

export const TEST_META_APP_SECRET = 'a'.repeat(32);
/** The platform's own Meta app (META_APP_SECRET), used by "Connect with Meta". */
export const TEST_PLATFORM_APP_SECRET = 'c'.repeat(32);
export const TEST_PAGE_TOKEN = `EAAG${'x'.repeat(40)}`;
export const TEST_PAGE: StubPage = {
  pageId: '100000000000001',
  name: 'Clinic Page',
  instagramAccountId: '17841400000000001',
  username: 'clinic.example',
};
/** What Meta's OAuth gives back for the code "good-code" in the stand-in. */
export const TEST_OAUTH_PAGE_TOKEN = `EAAG${'o'.repeat(40)}`;
export const TEST_OAUTH_PAGE: StubPage = {
  pageId: '100000000000002',
  name: 'Studio Page',
  instagramAccountId: '17841400000000002',
  username: 'studio.example',
};

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
  });

export const startGraphStub = async (
  appSecrets = [TEST_META_APP_SECRET, TEST_PLATFORM_APP_SECRET],
  /** 0 for any free port; the browser journeys' server is told a fixed one (e2e/serve.mjs). */
  listenPort = 0,
): Promise<GraphStub> => {
  const pages = new Map<string, StubPage>([[TEST_PAGE_TOKEN, TEST_PAGE]]);
  const messages: GraphSentMessage[] = [];
  const requests: GraphStub['requests'] = [];
  const subscribed: string[] = [];
  const subscribedFields = new Map<string, string[]>();
  const profiles = new Map<string, { username?: string; name?: string }>();
  const oauthPages: { token: string; page: StubPage }[] = [];
  const subscribeFailures: { status: number; code: number; subcode?: number; message?: string }[] = [];
  const failures: { status: number; code: number; subcode?: number; message?: string }[] = [];

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    requests.push({ method: request.method ?? 'GET', path: url.pathname });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const graphError = (status: number, code: number, message: string, subcode?: number) =>
      send(status, { error: { message, type: 'OAuthException', code, error_subcode: subcode, fbtrace_id: 'stub' } });
    const path = url.pathname.replace(/^\/v\d+\.\d+/, '');

    if (path === '/oauth/access_token') {
      if (url.searchParams.get('client_secret') !== TEST_PLATFORM_APP_SECRET)
        return graphError(400, 1, 'Error validating client secret.');
      if (url.searchParams.get('grant_type') === 'fb_exchange_token')
        return send(200, { access_token: 'LONG-USER-TOKEN', token_type: 'bearer', expires_in: 5_184_000 });
      if (url.searchParams.get('code') !== 'good-code')
        return graphError(400, 100, 'This authorization code has expired.', 36007);
      return send(200, { access_token: 'SHORT-USER-TOKEN', token_type: 'bearer', expires_in: 3600 });
    }

    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const proof = url.searchParams.get('appsecret_proof');
    if (proof && !appSecrets.some((secret) => proof === createHmac('sha256', secret).update(token).digest('hex')))
      return graphError(400, 100, 'Invalid appsecret_proof provided in the API argument');

    if (path === '/me/accounts' && token === 'LONG-USER-TOKEN')
      return send(200, {
        data: [
          { id: '100000000000009', name: 'Page without Instagram', access_token: `EAAG${'n'.repeat(40)}` },
          {
            id: TEST_OAUTH_PAGE.pageId,
            name: TEST_OAUTH_PAGE.name,
            access_token: TEST_OAUTH_PAGE_TOKEN,
            instagram_business_account: {
              id: TEST_OAUTH_PAGE.instagramAccountId,
              username: TEST_OAUTH_PAGE.username,
            },
          },
          ...oauthPages.map(({ token: pageToken, page }) => ({
            id: page.pageId,
            name: page.name,
            access_token: pageToken,
            instagram_business_account: { id: page.instagramAccountId, username: page.username },
          })),
        ],
      });

    const page =
      pages.get(token) ??
      (token === TEST_OAUTH_PAGE_TOKEN ? TEST_OAUTH_PAGE : oauthPages.find((row) => row.token === token)?.page);
    if (!page) return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (!proof) return graphError(400, 100, 'appsecret_proof argument is required');

    if (request.method === 'GET' && path === '/me')
      return send(200, {
        id: page.pageId,
        name: page.name,
        instagram_business_account: { id: page.instagramAccountId, username: page.username },
      });

    if (request.method === 'POST' && path === `/${page.pageId}/subscribed_apps`) {
      const failure = subscribeFailures.shift();
      if (failure) return graphError(failure.status, failure.code, failure.message ?? 'Stub failure', failure.subcode);
      const fields = (url.searchParams.get('subscribed_fields') ?? '').split(',').filter(Boolean);
      if (!fields.length) return graphError(400, 100, 'The parameter subscribed_fields is required');
      subscribed.push(page.pageId);
      subscribedFields.set(page.pageId, fields);
      return send(200, { success: true });
    }

    if (request.method === 'POST' && path === '/me/messages') {
      const body = JSON.parse((await readBody(request)) || '{}') as {
        recipient?: { id?: string };
        message?: { text?: string };
      };
      const failure = failures.shift();
      if (failure) return graphError(failure.status, failure.code, failure.message ?? 'Stub failure', failure.subcode);
      if (!body.recipient?.id) return graphError(400, 100, 'The parameter recipient is required');
      const id = `m_${randomBytes(12).toString('hex')}`;
      messages.push({ id, recipient: body.recipient.id, text: body.message?.text ?? null, token });
      return send(200, { recipient_id: body.recipient.id, message_id: id });
    }
    const profileId = path.match(/^\/(\d+)$/)?.[1];
    if (request.method === 'GET' && profileId) {
      const profile = profiles.get(profileId);
      if (!profile) return graphError(400, 100, 'User consent is required to access user profile', 2018218);
      const fields = (url.searchParams.get('fields') ?? '').split(',');
      return send(200, {
        id: profileId,
        ...(fields.includes('username') ? { username: profile.username } : {}),
        ...(fields.includes('name') ? { name: profile.name } : {}),
      });
    }
    return graphError(404, 803, `Unknown path ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    pages,
    messages,
    requests,
    subscribed,
    subscribedFields,
    profiles,
    oauthPages,
    failSubscribe: (...answers) => subscribeFailures.push(...answers),
    failNext: (...answers) => failures.push(...answers),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
