import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../platform/env';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settleReactions } from '../../testing/reactions';
import { seedAgent } from '../agents/seed';
import { widgetIdentitySecret } from '../connections/identity-secret';
import { forgetSubscribers } from '../webhooks/endpoints';
import { webhookDeliveries, webhookEndpoints } from '../webhooks/schema';
import { hostInstructions, signIdentity } from './identity';

const env = loadEnv({ NODE_ENV: 'test', ENCRYPTION_KEY: 'a'.repeat(64), DATA_DIR: '/tmp/switchboard-identity-test' });

describe('widget identity and context (pure)', () => {
  it('tells the agent the verified user and the unverified page context', () => {
    const secret = widgetIdentitySecret(env, 'wgt_abc');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(widgetIdentitySecret(env, 'wgt_other')).not.toBe(secret);
    const text = hostInstructions(env, 'wgt_abc', {
      message: 'Hi',
      contactIdentifier: 'c1',
      identity: {
        id: 'user_42',
        name: 'Ada',
        email: 'ada@example.com',
        plan: 'gold',
        hmac: signIdentity(secret, 'user_42'),
      },
      context: { page: '/pricing', cartTotal: 42 },
    });
    expect(text).toContain('verified by the site');
    expect(text).toContain('- name: Ada');
    expect(text).toContain('- plan: gold');
    expect(text).toContain('not verified');
    expect(text).toContain('- cartTotal: 42');
    expect(text).not.toContain(secret);
  });

  it('refuses an identity signed with another secret or for another id', () => {
    const secret = widgetIdentitySecret(env, 'wgt_abc');
    for (const hmac of [signIdentity(secret, 'user_41'), signIdentity(widgetIdentitySecret(env, 'wgt_x'), 'user_42')]) {
      expect(() =>
        hostInstructions(env, 'wgt_abc', { message: 'Hi', contactIdentifier: 'c', identity: { id: 'user_42', hmac } }),
      ).toThrow(/not signed with this widget's secret/);
    }
  });
});

describe('widget identity over HTTP', () => {
  let t: TestApp;
  let widgetId: string;
  let connectionId: string;
  let admin: string;
  let member: string;
  let subaccountId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'Identity Agency',
      owner: { email: 'owner@identity.test', name: 'Owner' },
      subaccounts: ['Shop'],
      users: [{ email: 'member@identity.test', name: 'Member', role: 'member' }],
    });
    subaccountId = agency.subaccountIds[0] as string;
    const agent = await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId });
    admin = await t.cookieFor(agency.ownerId);
    member = await t.cookieFor(agency.userIds['member@identity.test'] as string);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/connections',
      headers: { cookie: admin },
      payload: { subaccountId, buildId: agent.id, type: 'website-widget' },
    });
    ({ connectionId, widgetId } = created.json());
  });
  afterAll(() => t.close());

  it('gives the identity secret to admins only, and accepts only identities signed with it', async () => {
    const forMember = await t.app.inject({
      url: `/api/connections/${connectionId}/identity-secret`,
      headers: { cookie: member },
    });
    expect(forMember.statusCode).toBe(403);
    const res = await t.app.inject({
      url: `/api/connections/${connectionId}/identity-secret`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const { secret } = res.json() as { secret: string };
    const send = (identity: Record<string, unknown>, contactIdentifier: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/widget/${widgetId}/chat`,
        payload: { message: 'Hello', contactIdentifier, identity, context: { page: '/checkout' } },
      });
    const good = await send({ id: 'u_1', name: 'Ada', hmac: signIdentity(secret, 'u_1') }, 'visitor_good');
    expect(good.statusCode).toBe(200);
    const forged = await send({ id: 'u_2', name: 'Eve', hmac: signIdentity(secret, 'u_1') }, 'visitor_forged');
    expect(forged.statusCode).toBe(422);
    expect(forged.json().error.field).toBe('identity.hmac');
    const list = await t.app.inject({ url: `/api/widget/${widgetId}/conversations?contactIdentifier=visitor_forged` });
    expect(list.json().conversations).toEqual([]);
    const malformed = await send({ id: 'u_2', hmac: 'nothex' }, 'visitor_bad');
    expect(malformed.statusCode).toBe(422);
  });

  it("announces a verified visitor's address as a lead to the webhooks that chose it, once", async () => {
    await t.deps.db.insert(webhookEndpoints).values({
      id: 'whe_identified',
      subaccountId,
      url: 'https://hooks.example.test/leads',
      events: ['lead.captured'],
      secretEncrypted: 'unused',
    });
    // Written here, not through the API: this process's list of the sub-account's endpoints is dropped by hand.
    forgetSubscribers(subaccountId);
    const { secret } = (
      await t.app.inject({ url: `/api/connections/${connectionId}/identity-secret`, headers: { cookie: admin } })
    ).json() as { secret: string };
    const identity = { id: 'u_9', name: 'Lee', email: 'lee@example.test', hmac: signIdentity(secret, 'u_9') };
    let threadId: string | undefined;
    for (const message of ['Hello', 'Still there?']) {
      const sent = await t.app.inject({
        method: 'POST',
        url: `/api/widget/${widgetId}/chat`,
        payload: { message, contactIdentifier: 'visitor_lead', identity, threadId },
      });
      expect(sent.statusCode).toBe(200);
      threadId = sent.json().threadId;
    }
    // The lead is announced by an outbox reaction, after the chat's commit.
    await settleReactions(t.deps);
    const leads = await t.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, 'whe_identified'));
    expect(leads.map((row) => JSON.parse(row.body).data)).toEqual([
      expect.objectContaining({ email: 'lee@example.test', name: 'Lee', source: 'identify' }),
    ]);
  });
});
