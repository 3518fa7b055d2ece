/**
 * A Twilio connection saved with an API key sends, but Twilio signs its webhooks with the account's
 * auth token: without it every inbound webhook is refused, and the connection says so from its save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startTwilioStub, TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, type TwilioStub } from '../../testing/twilio-stub';
import { seedAgent } from '../agents/seed';

const API_KEY_SID = `SK${'b2'.repeat(16)}`;
const API_KEY_SECRET = 'k'.repeat(32);
let t: TestApp;
let stub: TwilioStub;
let admin: string;
let subaccountId: string;
let agentId: string;

const connect = (twilio: Record<string, string>, phoneNumber: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/channels',
    headers: { cookie: admin },
    payload: {
      subaccountId,
      type: 'sms',
      buildId: agentId,
      twilio: { accountSid: TEST_ACCOUNT_SID, ...twilio },
      sender: { phoneNumber },
    },
  });

beforeAll(async () => {
  stub = await startTwilioStub();
  stub.credentials.set(API_KEY_SID, API_KEY_SECRET);
  t = await startTestApp({ TWILIO_API_URL: stub.url, PUBLIC_URL: 'https://switchboard.example.com' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  subaccountId = agency.subaccountIds[0] as string;
  agentId = (await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId })).id;
  admin = await t.cookieFor(agency.ownerId);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('a Twilio connection with an API key', () => {
  it('without the auth token: saved (it sends) with a warning that inbound webhooks are refused', async () => {
    const res = await connect({ apiKeySid: API_KEY_SID, apiKeySecret: API_KEY_SECRET }, '+15557650001');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'live', credentialKind: 'api_key' });
    expect(res.json().webhookWarning).toContain('Add the auth token');
    const listed = await t.app.inject({
      url: `/api/subaccounts/${subaccountId}/channels?type=sms`,
      headers: { cookie: admin },
    });
    const shown = listed
      .json()
      .connections.find((c: { connectionId: string }) => c.connectionId === res.json().connectionId);
    expect(shown.webhookWarning).toContain('every one is refused');
    // And indeed: a webhook cannot be checked, so it is refused.
    const inbound = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/twilio/${res.json().connectionId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'c2lnbmF0dXJl' },
      payload: new URLSearchParams({ MessageSid: `SM${'1'.repeat(32)}`, From: '+15551230001', Body: 'Hi' }).toString(),
    });
    expect(inbound.statusCode).toBe(403);
  });

  it('with the auth token as well: no warning', async () => {
    const res = await connect(
      { apiKeySid: API_KEY_SID, apiKeySecret: API_KEY_SECRET, authToken: TEST_AUTH_TOKEN },
      '+15557650002',
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().webhookWarning).toBeNull();
  });
});
