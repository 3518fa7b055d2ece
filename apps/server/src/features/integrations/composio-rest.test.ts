import type { TEnabledTool } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startComposioStub } from '../../testing/composio-stub';
import { startTestApp, type TestApp } from '../../testing/harness';
import { runAppTool } from '../agents/app-tools';
import * as repo from './repo';

const KEY = 'composio-test-key';

describe('Composio REST adapter (against a local stand-in of its API)', () => {
  let stub: Awaited<ReturnType<typeof startComposioStub>>;
  let t: TestApp;
  let cookie: string;
  let subaccountId: string;
  const headers = () => ({ cookie, 'x-subaccount-id': subaccountId });

  beforeAll(async () => {
    stub = await startComposioStub(KEY);
    t = await startTestApp({
      COMPOSIO_API_KEY: KEY,
      COMPOSIO_BASE_URL: stub.url,
      PUBLIC_URL: 'https://app.example.test',
    });
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Composio Agency',
      owner: { email: 'owner@composio.test', name: 'Owner' },
      subaccounts: ['Main'],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it("lists Composio's toolkits, connects by OAuth and by API key, and maps call failures", async () => {
    const apps = await t.app.inject({ method: 'GET', url: '/api/integrations/apps', headers: headers() });
    expect(apps.json()).toMatchObject({
      sandbox: false,
      apps: [
        { slug: 'gmail', name: 'Gmail', authKind: 'oauth', sandbox: false },
        { slug: 'serpapi', authKind: 'api_key' },
      ],
    });
    expect(stub.state.requests.every((request) => request.key === KEY)).toBe(true);

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'gmail' },
    });
    expect(started.json()).toMatchObject({
      redirectUrl: 'https://connect.composio.dev/link/ln_test',
      connection: { status: 'pending_connection', sandbox: false },
    });
    const created = stub.state.requests.find((request) => request.path === '/api/v3/connected_accounts');
    expect(created?.body).toMatchObject({
      auth_config: { id: 'ac_gmail' },
      connection: {
        user_id: subaccountId,
        callback_url: expect.stringMatching(
          /^https:\/\/app\.example\.test\/api\/integrations\/oauth\/callback\?state=/,
        ),
      },
    });
    const id = started.json().connection.id as string;
    const row = await repo.findConnection(t.deps.db, id);
    const callback = await t.app.inject({
      method: 'GET',
      url: `/api/integrations/oauth/callback?state=${row?.oauthState}&status=success`,
      headers: { cookie },
    });
    expect(callback.headers.location).toBe('/integrations?connected=gmail');
    const connected = await repo.findConnection(t.deps.db, id);
    expect(connected).toMatchObject({ status: 'connected', externalId: 'ca_gmail', oauthState: null });
    expect(connected?.discoveredTools[0]).toMatchObject({
      slug: 'GMAIL_SEND_EMAIL',
      version: '20250909_00',
      source: 'composio',
    });

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'serpapi', apiKey: 'wrong-key' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'apiKey' });
    const keyed = await t.app.inject({
      method: 'POST',
      url: '/api/integrations/connections',
      headers: headers(),
      payload: { appSlug: 'serpapi', apiKey: 'good-serp-key' },
    });
    expect(keyed.json()).toMatchObject({ redirectUrl: null, connection: { status: 'connected' } });

    const tool = {
      source: 'composio' as const,
      ownerId: id,
      slug: 'GMAIL_SEND_EMAIL',
      description: 'Sends an email',
      inputSchema: (connected?.discoveredTools[0]?.schema ?? {
        type: 'object',
        properties: {},
        required: [],
      }) as TEnabledTool['inputSchema'],
      version: '20250909_00',
      fixedValues: {},
    };
    const call = (input: Record<string, unknown>) => runAppTool(t.deps, { subaccountId, tool, input, origin: 'live' });

    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toEqual({
      message_id: 'msg_1',
      to: 'a@example.com',
    });
    const executed = stub.state.requests.findLast((request) => request.path.startsWith('/api/v3/tools/execute/'));
    expect(executed).toMatchObject({
      path: '/api/v3/tools/execute/GMAIL_SEND_EMAIL',
      body: { connected_account_id: 'ca_gmail', user_id: subaccountId, version: '20250909_00' },
    });

    expect(await call({ recipient_email: 'a@example.com' })).toMatchObject({
      error: { code: 'TOOL_EXECUTION_FAILED', field: 'body' },
    });

    stub.state.mode = 'down';
    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toMatchObject({
      error: { code: 'COMPOSIO_CONNECTION_FAILED' },
    });
    expect((await repo.findConnection(t.deps.db, id))?.status).toBe('failed');
    const status = await t.app.inject({ method: 'GET', url: '/api/integrations/status', headers: headers() });
    expect(status.json().integrations).toEqual({ gmail: false, serpapi: true });
    expect(status.json().entries['trigger:gmail']).toBe('failed');

    stub.state.mode = 'hangup';
    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toMatchObject({
      error: { code: 'COMPOSIO_CONNECTION_FAILED' },
    });

    // A working call marks the failed connection connected again.
    stub.state.mode = 'ok';
    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toMatchObject({ message_id: 'msg_1' });
    expect((await repo.findConnection(t.deps.db, id))?.status).toBe('connected');

    stub.state.mode = 'expired';
    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toMatchObject({
      error: { code: 'COMPOSIO_AUTH_REQUIRED' },
    });
    expect((await repo.findConnection(t.deps.db, id))?.status).toBe('auth_required');
    // Until the account is connected again, no call reaches Composio.
    const before = stub.state.requests.length;
    expect(await call({ recipient_email: 'a@example.com', body: 'Hi' })).toMatchObject({
      error: { code: 'COMPOSIO_AUTH_REQUIRED' },
    });
    expect(stub.state.requests.length).toBe(before);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/integrations/connections/${id}`,
      headers: headers(),
    });
    expect(removed.statusCode).toBe(204);
    expect(stub.state.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/v3/connected_accounts/ca_gmail' });
  });

  it('answers COMPOSIO_CONNECTION_FAILED when Composio cannot be reached at all', async () => {
    const closed = await startTestApp({ COMPOSIO_API_KEY: KEY, COMPOSIO_BASE_URL: 'http://127.0.0.1:9' });
    try {
      const agency = await seedAgency(closed.deps.db, {
        accountName: 'Offline Agency',
        owner: { email: 'owner@offline-composio.test', name: 'Owner' },
        subaccounts: ['Main'],
      });
      const response = await closed.app.inject({
        method: 'GET',
        url: '/api/integrations/apps',
        headers: { cookie: await closed.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] ?? '' },
      });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe('COMPOSIO_CONNECTION_FAILED');
    } finally {
      await closed.close();
    }
  });
});
