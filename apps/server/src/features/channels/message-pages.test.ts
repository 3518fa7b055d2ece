/** The sandbox phone's message log pages back through every message, not only the latest page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENCY, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { channelMessages } from './schema';

let t: TestApp;
let admin: string;
let outsider: string;
let connectionId: string;
let otherConnectionId: string;
const COUNT = 7;

const api = (url: string, cookie = admin) => t.app.inject({ method: 'GET', url, headers: { cookie } });

const connect = async (subaccountId: string, accountId: string, cookie: string) => {
  const agent = await seedAgent(t.deps.db, { accountId, subaccountId, name: 'Pager' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/channels',
    headers: { cookie },
    payload: { subaccountId, type: 'sms', buildId: agent.id },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().connectionId as string;
};

beforeAll(async () => {
  t = await startTestApp({ JOB_POLL_MS: '20' });
  const agency = await seedAgency(t.deps.db, DEMO_AGENCY);
  const other = await seedAgency(t.deps.db, {
    accountName: 'Other Pager',
    owner: { email: 'pager-other@example.com', name: 'Other' },
    subaccounts: ['Other Co'],
  });
  admin = await t.cookieFor(agency.ownerId);
  outsider = await t.cookieFor(other.ownerId);
  connectionId = await connect(agency.subaccountIds[0] as string, agency.accountId, admin);
  otherConnectionId = await connect(other.subaccountIds[0] as string, other.accountId, outsider);
  // Messages stored directly (no agent answers them); two share a timestamp, as a burst would.
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, i === 4 ? 3 : i));
  await t.deps.db.insert(channelMessages).values(
    Array.from({ length: COUNT }, (_, i) => ({
      id: `cmsg_page${i}`,
      subaccountId: agency.subaccountIds[0] as string,
      connectionId,
      direction: 'inbound' as const,
      contactPhone: '+15555550123',
      body: `message ${i}`,
      mediaUrls: [],
      status: 'received' as const,
      providerSid: `SMpage${i}`,
      transport: 'sandbox' as const,
      createdAt: at(i),
    })),
  );
});
afterAll(async () => {
  await t.close();
});

describe('paging back through a connection’s messages', () => {
  it('answers the latest page, then each older one, every message once, oldest first', async () => {
    const latest = await api(`/api/channels/${connectionId}/messages?limit=3`);
    expect(latest.statusCode, latest.body).toBe(200);
    const seen: string[] = latest.json().messages.map((m: { body: string }) => m.body);
    expect(latest.json().hasMore).toBe(true);
    let before = latest.json().messages[0].messageId as string;
    for (;;) {
      const page = await api(`/api/channels/${connectionId}/messages?limit=3&before=${before}`);
      expect(page.statusCode, page.body).toBe(200);
      seen.unshift(...page.json().messages.map((m: { body: string }) => m.body));
      if (!page.json().hasMore) break;
      before = page.json().messages[0].messageId;
    }
    expect(seen).toEqual(['message 0', 'message 1', 'message 2', 'message 3', 'message 4', 'message 5', 'message 6']);
    const all = await api(`/api/channels/${connectionId}/messages?limit=500`);
    expect(all.json()).toMatchObject({ hasMore: false });
    expect(all.json().messages).toHaveLength(COUNT);
  });

  it('refuses a cursor of another connection (422) and another tenant’s connection (404)', async () => {
    const foreign = await api(`/api/channels/${otherConnectionId}/messages?before=cmsg_page3`, outsider);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.field).toBe('before');
    expect((await api(`/api/channels/${connectionId}/messages?before=cmsg_page3`, outsider)).statusCode).toBe(404);
  });
});
