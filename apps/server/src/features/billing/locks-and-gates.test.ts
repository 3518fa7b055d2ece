/**
 * Locks and gates that hold, over the app's HTTP routes: a downgrade to Starter locks the newest
 * sub-accounts at once; a locked sub-account refuses every write and every public channel (in
 * visitors' words) while billing still works from it; demo tiers and white-label branding are
 * checked by the routes that use them.
 */

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { flushMetering, meter } from '../llm/credits';
import { VISITOR_UNAVAILABLE } from './channel-gate';
import { spendStrict } from './ledger';
import { usageLogs } from './schema';

let t: TestApp;
let n = 0;

const agencyWith = async (subaccounts: string[]) => {
  n += 1;
  const agency = await seedAgency(t.deps.db, {
    accountName: `Locks ${n}`,
    owner: { email: `locks${n}@example.test`, name: 'Owner' },
    subaccounts,
  });
  const cookie = await t.cookieFor(agency.ownerId);
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    subaccountId = agency.subaccountIds[0] as string,
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { cookie, 'x-subaccount-id': subaccountId },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
  return { agency, call };
};

type Call = Awaited<ReturnType<typeof agencyWith>>['call'];

const pay = async (call: Call, priceId: string) => {
  const started = await call('POST', '/api/stripe/create-checkout', { priceId });
  expect(started.status).toBe(200);
  const id = String(started.body.url).split('/billing/sandbox/')[1];
  expect((await call('POST', `/api/billing/sandbox/checkouts/${id}/complete`, { outcome: 'pay' })).status).toBe(200);
};

/** An agent with a deployed widget and a demo in the sub-account. */
const channelsIn = async (call: Call, subaccountId: string) => {
  const agent = await call('POST', '/api/agents', { name: 'Front desk' }, subaccountId);
  expect(agent.status).toBe(201);
  const connection = await call(
    'POST',
    '/api/connections',
    { subaccountId, buildId: agent.body.id, type: 'website-widget' },
    subaccountId,
  );
  expect(connection.status).toBeLessThan(300);
  const demo = await call(
    'POST',
    '/api/demos',
    { name: 'Demo', type: 'standard', buildId: agent.body.id },
    subaccountId,
  );
  expect(demo.status).toBe(201);
  return {
    agentId: agent.body.id as string,
    widgetId: connection.body.widgetId as string,
    demoId: (demo.body.demoId ?? demo.body.id) as string,
  };
};

const widgetChat = (widgetId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/widget/${widgetId}/chat`,
    payload: { contactIdentifier: 'preview_1_abc', message: 'Hello' },
  });
const demoChat = (demoId: string) =>
  t.app.inject({ method: 'POST', url: '/api/demo-chat', payload: { demoId, message: 'Hello' } });

beforeAll(async () => {
  t = await startTestApp({ FREE_PLAN_CREDITS: '100' });
});
afterAll(async () => {
  await t?.close();
});

describe('a downgrade to Starter locks sub-accounts, and the lock holds', () => {
  it('locks at once, refuses every write and public channel of a locked one, and unlocks by choice or upgrade', async () => {
    const { agency, call } = await agencyWith(['Main', 'Client B', 'Client C']);
    const [main, b, c] = agency.subaccountIds as [string, string, string];
    await pay(call, 'sb_growth_month_3000');
    const inB = await channelsIn(call, b);
    const inC = await channelsIn(call, c);
    expect((await widgetChat(inB.widgetId)).statusCode).toBe(200);

    expect((await call('POST', '/stripe/schedule-downgrade', { newPriceId: 'sb_starter_month_500' })).status).toBe(200);
    expect((await call('POST', '/api/billing/sandbox/renew')).body.priceId).toBe('sb_starter_month_500');

    const selection = await call('GET', '/api/billing/subaccount-selection');
    expect(selection.body.needsSelection).toBe(true);
    expect(selection.body.subaccounts.filter((row: { locked: boolean }) => row.locked)).toHaveLength(2);
    // The owner confirms Main as the active one ('Select Your Active Subaccount').
    const kept = await call('POST', '/api/billing/subaccount-selection', { subaccountId: main });
    expect(kept.body.needsSelection).toBe(false);
    expect(kept.body.subaccounts.find((row: { id: string }) => row.id === main).locked).toBe(false);

    // Every write on a locked sub-account: 403 with the reason and the way out.
    const writes = [
      await call('POST', '/api/agents', { name: 'Sneaky' }, b),
      await call('PATCH', `/api/agents/${inB.agentId}`, { name: 'Renamed' }, b),
      await call('POST', `/api/agents/${inB.agentId}/chat`, { message: 'Hi' }, b),
      await call('POST', '/api/connections', { subaccountId: b, buildId: inB.agentId, type: 'website-block' }, b),
      await call('POST', '/api/demos', { name: 'Another', type: 'standard', buildId: inB.agentId }, b),
      await call('DELETE', `/api/demos/${inB.demoId}`, undefined, b),
    ];
    for (const write of writes) {
      expect(write.status).toBe(403);
      expect(write.body.error).toMatchObject({
        code: 'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
        reason: 'subaccount_locked',
      });
      expect(write.body.error.message).toContain('Upgrade your plan');
    }
    // Reading stays possible; billing works from the locked sub-account (the way out).
    expect((await call('GET', '/api/agents', undefined, b)).status).toBe(200);
    expect((await call('GET', '/api/openrouter/usage', undefined, b)).status).toBe(200);

    // Public channels answer visitors in neutral words, with the machine reason.
    for (const answer of [await widgetChat(inB.widgetId), await demoChat(inC.demoId)]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().error).toMatchObject({
        code: 'FORBIDDEN',
        message: VISITOR_UNAVAILABLE,
        reason: 'subaccount_locked',
      });
    }

    // The owner keeps Client B instead: B works again, Main and C are locked.
    const chosen = await call('POST', '/api/billing/subaccount-selection', { subaccountId: b });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.needsSelection).toBe(false);
    expect((await widgetChat(inB.widgetId)).statusCode).toBe(200);
    expect((await call('POST', '/api/agents', { name: 'Sneaky' }, main)).status).toBe(403);

    // An upgrade unlocks them all.
    const preview = await call('POST', '/stripe/preview-upgrade', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
    });
    expect(preview.status).toBe(200);
    const upgraded = await call('POST', '/api/stripe/upgrade-subscription', {
      newPriceId: 'sb_growth_month_3000',
      renewCycle: true,
      prorationDate: preview.body.proration.prorationDate,
    });
    expect(upgraded.status).toBe(200);
    expect((await call('POST', '/api/agents', { name: 'Back' }, c)).status).toBe(201);
    expect((await demoChat(inC.demoId)).statusCode).toBe(200);
  });
});

describe('demo tiers and white-label branding are checked where they are used', () => {
  it('the free plan makes basic demos only; Growth makes advanced but not white-label ones', async () => {
    const { agency, call } = await agencyWith(['Main']);
    const agent = await call('POST', '/api/agents', { name: 'Demo agent' });
    for (const type of ['sms', 'facebook', 'instagram']) {
      const refused = await call('POST', '/api/demos', { name: type, type, buildId: agent.body.id });
      expect(refused.status, type).toBe(403);
      expect(refused.body.error.message).toBe('Advanced demos need a higher plan. Upgrade your plan to use them.');
    }
    const basic = await call('POST', '/api/demos', { name: 'Site', type: 'website', buildId: agent.body.id });
    expect(basic.status).toBe(201);
    // Changing an existing demo's type is checked too.
    expect((await call('PATCH', `/api/demos/${basic.body.demoId ?? basic.body.id}`, { type: 'sms' })).status).toBe(403);

    await pay(call, 'sb_growth_month_3000');
    expect((await call('POST', '/api/demos', { name: 'SMS', type: 'sms', buildId: agent.body.id })).status).toBe(201);
    const branded = await call('POST', '/api/demos', {
      name: 'Branded',
      type: 'website',
      buildId: agent.body.id,
      logoUrl: 'https://example.com/logo.png',
    });
    expect(branded.status).toBe(403);
    expect(branded.body.error.message).toBe('White-label demos need a higher plan. Upgrade your plan to use them.');

    const branding = await call('PATCH', `/api/sms/${agency.subaccountIds[0]}/settings`, { companyName: 'Acme' });
    expect(branding.status).toBe(403);
    expect(branding.body.error.message).toBe('White-label branding needs a higher plan. Upgrade your plan to use it.');
    expect((await call('PATCH', `/api/sms/${agency.subaccountIds[0]}/settings`, { theme: 'light' })).status).toBe(200);
  });
});

describe('spending that cannot overshoot, over HTTP', () => {
  it('50 chats at once with credits for about one call: about one answer, the rest 402, nothing unpaid', async () => {
    const { agency, call } = await agencyWith(['Main']);
    const agent = await call('POST', '/api/agents', { name: 'Thrifty' });
    // Leave credits for about one reply of the offline model (its estimate is about 0.004).
    await spendStrict(t.deps, { accountId: agency.accountId, credits: 100 - 0.006, idempotencyKey: 'burn' });
    const cookie = await t.cookieFor(agency.ownerId);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/agents/${agent.body.id}/chat`,
          headers: { cookie },
          payload: { message: `Hi ${i}` },
        }),
      ),
    );
    // The test chat streams a reply (200, server-sent events); a refusal is a JSON error. A call
    // that has finished counts its real cost (far below its estimate) at once, which frees room
    // for more, so several may be answered, never all fifty, and every answer is paid.
    const answered = answers.filter((answer) => answer.statusCode === 200 && answer.body.includes('event: done'));
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(answered.length).toBeLessThan(50);
    const refused = answers.filter((answer) => answer.statusCode === 402);
    expect(refused).toHaveLength(50 - answered.length);
    expect(refused[0]?.json().error.code).toBe('BILLING_INSUFFICIENT_CREDITS');
    await flushMetering();
    const [row] = await t.deps.db
      .select({ cost: sql<string>`sum(${usageLogs.credits})`, charged: sql<string>`sum(${usageLogs.charged})` })
      .from(usageLogs)
      .where(eq(usageLogs.accountId, agency.accountId));
    expect(Number(row?.charged)).toBe(Number(row?.cost));
    expect(Number(row?.cost)).toBeLessThanOrEqual(0.006);
  });
});

describe('credits per client', () => {
  it('a client at its monthly allowance stops (visitors read the neutral message) while another goes on', async () => {
    const { agency, call } = await agencyWith(['Main', 'Client B']);
    const [main, b] = agency.subaccountIds as [string, string];
    await pay(call, 'sb_growth_month_3000');
    const inMain = await channelsIn(call, main);
    const inB = await channelsIn(call, b);
    const refusedInput = await call('PUT', `/api/billing/allowances/${b}`, { monthlyCredits: -1 });
    expect(refusedInput.status).toBe(422);
    const set = await call('PUT', `/api/billing/allowances/${b}`, { monthlyCredits: 0.001 });
    expect(set.status).toBe(200);
    expect(set.body.subaccounts.find((row: { subaccountId: string }) => row.subaccountId === b).monthlyCredits).toBe(
      0.001,
    );

    const stopped = await widgetChat(inB.widgetId);
    expect(stopped.statusCode).toBe(402);
    expect(stopped.json().error).toMatchObject({
      code: 'FORBIDDEN',
      message: VISITOR_UNAVAILABLE,
      reason: 'allowance_reached',
    });
    const agencyView = await t.app.inject({
      method: 'POST',
      url: `/api/agents/${inB.agentId}/chat`,
      headers: { cookie: await t.cookieFor(agency.ownerId) },
      payload: { message: 'Hello' },
    });
    expect(agencyView.statusCode).toBe(402);
    expect(agencyView.json().error.message).toBe('This client has used its monthly credit allowance.');

    expect((await widgetChat(inMain.widgetId)).statusCode).toBe(200);
    // A metered call of 2 credits in Main counts towards Main's month.
    meter(t.deps, {
      accountId: agency.accountId,
      subaccountId: main,
      model: 'gpt-4o',
      inputTokens: 1000,
      outputTokens: 1000,
      credits: 2,
      idempotencyKey: 'main-call',
      source: 'test',
    });
    await flushMetering();
    const listed = await call('GET', '/api/billing/allowances');
    const mainRow = listed.body.subaccounts.find((row: { subaccountId: string }) => row.subaccountId === main);
    expect(mainRow.usedThisMonth).toBe(2);
    expect(mainRow.monthlyCredits).toBeNull();

    // Usage aggregated by the database, per client, agent, channel, model and day.
    const bySub = await call('GET', '/api/usage/breakdown?groupBy=subaccount');
    expect(bySub.status).toBe(200);
    expect(bySub.body.rows.find((row: { key: string }) => row.key === main)).toMatchObject({
      label: 'Main',
      credits: 2,
    });
    const byChannel = await call('GET', '/api/usage/breakdown?groupBy=channel');
    expect(byChannel.body.rows.map((row: { label: string }) => row.label)).toEqual(
      expect.arrayContaining(['widget', 'Other']),
    );
    const byAgent = await call('GET', '/api/usage/breakdown?groupBy=agent');
    expect(byAgent.body.rows.some((row: { label: string }) => row.label === 'Front desk')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const byDay = await call('GET', `/api/usage/breakdown?groupBy=day&from=${today}&to=${today}`);
    expect(byDay.body.rows).toHaveLength(1);
    const backwards = await call('GET', '/api/usage/breakdown?from=2026-02-01&to=2026-01-01');
    expect(backwards.status).toBe(422);
    expect((await call('GET', '/api/usage/breakdown?groupBy=planet')).status).toBe(422);

    // Removing the allowance lets the client go on.
    await call('PUT', `/api/billing/allowances/${b}`, { monthlyCredits: null });
    expect((await widgetChat(inB.widgetId)).statusCode).toBe(200);
  });
});
