/**
 * A client's login (a user of one sub-account of an agency with several clients) sees the usage
 * and allowance of its own sub-account, and nothing of the agency's money or of its other clients:
 * allowances, every grouping of the usage breakdown and the usage logs are filtered on the server;
 * the overview (plan, card, invoices) and every call that buys or changes something answer 403.
 * The agency's owner and an admin of every sub-account see and manage all of it.
 */
import { USAGE_GROUPS } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { debitUsages } from './ledger';

let t: TestApp;
let accountId: string;
let hq: string;
let alpha: string;
let beta: string;
let invoiceId: string;
let checkoutId: string;
const cookies: Record<string, string> = {};
const agents: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'PUT';
const as =
  (who: string, subaccountId = alpha) =>
  async (method: Method, url: string, payload?: object) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { cookie: cookies[who] as string, 'x-subaccount-id': subaccountId },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, text: response.body, body: response.body ? response.json() : null };
  };

const CLIENTS = ['alpha-member', 'alpha-viewer', 'alpha-admin'] as const;
const MANAGERS = ['owner', 'staff-admin'] as const;

/** What must never reach a client of Alpha: Beta's and HQ's ids, names and figures, the agency's invoice. */
const otherClientsMarks = () => [
  beta,
  hq,
  'Client Beta',
  'Agency HQ',
  'Beta Secret Agent',
  agents.beta as string,
  'beta-only-model',
  '7.654321',
  '4321.5',
  invoiceId,
];
const expectNoLeak = (text: string, where: string) => {
  for (const mark of otherClientsMarks()) expect(text, `${where} shows ${mark}`).not.toContain(mark);
};

beforeAll(async () => {
  t = await startTestApp();
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Scoped Agency',
    owner: { email: 'owner@scoped.test', name: 'Owner' },
    subaccounts: ['Agency HQ', 'Client Alpha', 'Client Beta'],
    users: [
      { email: 'alpha-member@scoped.test', name: 'Alpha Member', role: 'member', subaccounts: ['Client Alpha'] },
      { email: 'alpha-viewer@scoped.test', name: 'Alpha Viewer', role: 'viewer', subaccounts: ['Client Alpha'] },
      { email: 'alpha-admin@scoped.test', name: 'Alpha Admin', role: 'admin', subaccounts: ['Client Alpha'] },
      { email: 'staff-admin@scoped.test', name: 'Staff Admin', role: 'admin' },
    ],
  });
  accountId = agency.accountId;
  [hq, alpha, beta] = agency.subaccountIds as [string, string, string];
  for (const [email, id] of Object.entries(agency.userIds))
    cookies[email.split('@')[0] as string] = await t.cookieFor(id);

  const owner = as('owner');
  const started = await owner('POST', '/api/stripe/create-checkout', { priceId: 'sb_growth_month_3000' });
  expect(started.status, started.text).toBe(200);
  checkoutId = String(started.body.url).split('/billing/sandbox/')[1] as string;
  expect(
    (await owner('POST', `/api/billing/sandbox/checkouts/${checkoutId}/complete`, { outcome: 'pay' })).status,
  ).toBe(200);
  const overview = await owner('GET', '/api/billing/overview');
  invoiceId = overview.body.invoices[0].id;
  expect(invoiceId).toBeTruthy();

  agents.alpha = (await as('owner', alpha)('POST', '/api/agents', { name: 'Alpha Front Desk' })).body.id;
  agents.beta = (await as('owner', beta)('POST', '/api/agents', { name: 'Beta Secret Agent' })).body.id;
  expect((await owner('PUT', `/api/billing/allowances/${alpha}`, { monthlyCredits: 250 })).status).toBe(200);
  expect((await owner('PUT', `/api/billing/allowances/${beta}`, { monthlyCredits: 4321.5 })).status).toBe(200);

  const call = (subaccountId: string | null, credits: number, extra: object, key: string) => ({
    accountId,
    subaccountId,
    model: 'offline-mini',
    inputTokens: 10,
    outputTokens: 10,
    credits,
    idempotencyKey: key,
    source: 'test',
    ...extra,
  });
  await debitUsages(t.deps, [
    call(alpha, 1.25, { agentId: agents.alpha, channel: 'widget' }, 'alpha-1'),
    call(beta, 7.654321, { agentId: agents.beta, channel: 'sms', model: 'beta-only-model' }, 'beta-1'),
    call(hq, 3.5, { channel: 'api' }, 'hq-1'),
    call(null, 0.5, {}, 'account-1'),
  ]);
});
afterAll(() => t.close());

describe('a client of the agency', () => {
  it('sees its own allowance only, and cannot set one', async () => {
    for (const who of CLIENTS) {
      const listed = await as(who)('GET', '/api/billing/allowances');
      expect(listed.status, `${who}: ${listed.text}`).toBe(200);
      expect(listed.body.subaccounts).toEqual([
        expect.objectContaining({
          subaccountId: alpha,
          name: 'Client Alpha',
          monthlyCredits: 250,
          usedThisMonth: 1.25,
        }),
      ]);
      expectNoLeak(listed.text, `${who} allowances`);
      for (const target of [alpha, beta]) {
        const set = await as(who)('PUT', `/api/billing/allowances/${target}`, { monthlyCredits: 1_000_000 });
        expect(set.status, `${who} sets ${target}`).toBe(403);
        expectNoLeak(set.text, `${who} sets an allowance`);
      }
    }
    for (const who of MANAGERS) {
      const listed = await as(who)('GET', '/api/billing/allowances');
      const rows: { subaccountId: string }[] = listed.body.subaccounts;
      expect(rows.map((row) => row.subaccountId).sort()).toEqual([hq, alpha, beta].sort());
      expect(rows.find((row) => row.subaccountId === beta)).toMatchObject({
        monthlyCredits: 4321.5,
        usedThisMonth: 7.654321,
      });
    }
  });

  it('sees its own calls in every grouping of the usage breakdown', async () => {
    for (const who of CLIENTS) {
      for (const groupBy of USAGE_GROUPS) {
        const answer = await as(who)('GET', `/api/usage/breakdown?groupBy=${groupBy}`);
        expect(answer.status, `${who} ${groupBy}: ${answer.text}`).toBe(200);
        expectNoLeak(answer.text, `${who} breakdown by ${groupBy}`);
        const credits = answer.body.rows.reduce((sum: number, row: { credits: number }) => sum + row.credits, 0);
        expect(credits, `${who} ${groupBy}`).toBe(1.25);
      }
      const bySubaccount = await as(who)('GET', '/api/usage/breakdown?groupBy=subaccount');
      expect(bySubaccount.body.rows).toEqual([
        expect.objectContaining({ key: alpha, label: 'Client Alpha', calls: 1, credits: 1.25 }),
      ]);
      const byAgent = await as(who)('GET', '/api/usage/breakdown?groupBy=agent');
      expect(byAgent.body.rows).toEqual([expect.objectContaining({ key: agents.alpha, label: 'Alpha Front Desk' })]);
      // Asking as another client's sub-account is not found.
      expect((await as(who, beta)('GET', '/api/usage/breakdown?groupBy=subaccount')).status).toBe(404);
    }
    const agencyView = await as('owner')('GET', '/api/usage/breakdown?groupBy=subaccount');
    expect(agencyView.body.rows.map((row: { key: string | null }) => row.key).sort()).toEqual(
      [alpha, beta, hq, null].sort(),
    );
    const agencyByAgent = await as('owner')('GET', '/api/usage/breakdown?groupBy=agent');
    expect(agencyByAgent.body.rows.map((row: { label: string }) => row.label).sort()).toEqual(
      ['Alpha Front Desk', 'Beta Secret Agent', 'None'].sort(),
    );
  });

  it("reads its own usage logs, the plan's capabilities and no balance", async () => {
    for (const who of CLIENTS) {
      const usage = await as(who)('GET', '/api/openrouter/usage');
      expect(usage.status, usage.text).toBe(200);
      expect(usage.body.balance).toBeNull();
      expect(usage.body.capabilities.features.marketplace).toBe(true);
      expect(usage.body.usageLogs.map((log: { cost: number }) => log.cost)).toEqual([1.25]);
      expectNoLeak(usage.text, `${who} usage`);
      expect(usage.text).not.toContain('growth');
    }
    const agencyView = await as('owner')('GET', '/api/openrouter/usage');
    expect(agencyView.body.balance.planCode).toBe('growth_monthly');
    expect(agencyView.body.usageLogs).toHaveLength(4);
  });

  it("gets 403 on the overview and every call about the agency's money", async () => {
    const money: [Method, string, object?][] = [
      ['GET', '/api/billing/overview'],
      ['GET', '/stripe/subscription-details'],
      ['GET', '/api/billing/subaccount-selection'],
      ['POST', '/api/billing/subaccount-selection', { subaccountId: alpha }],
      ['PUT', '/api/billing/low-balance-alerts', { thresholds: [50] }],
      ['PUT', '/api/billing/auto-recharge', { enabled: true, thresholdCredits: 10, packPriceId: 'sb_pack_500' }],
      ['POST', '/api/stripe/create-checkout', { priceId: 'sb_pack_500', mode: 'payment' }],
      ['POST', '/api/openrouter/credits/redeem', { code: 'WELCOME100' }],
      ['POST', '/api/stripe/create-portal', { returnUrl: '/usage' }],
      ['POST', '/stripe/preview-upgrade', { newPriceId: 'sb_scale_month_10000' }],
      ['POST', '/stripe/cancel-subscription', { cancelAtPeriodEnd: true }],
      ['POST', '/stripe/resubscribe', {}],
      ['POST', '/api/billing/sandbox/renew', {}],
    ];
    for (const who of CLIENTS) {
      for (const [method, url, payload] of money) {
        const answer = await as(who)(method, url, payload);
        expect(answer.status, `${who} ${method} ${url}: ${answer.text}`).toBe(403);
        expectNoLeak(answer.text, `${who} ${url}`);
        // The card's last four digits, not a support id that happens to hold them.
        expect(answer.text.replace(/"support_id":"\w+"/g, '')).not.toContain('4242');
      }
    }
    // The agency's own sandbox checkout page is not found for a client, even an admin of one.
    const page = await as('alpha-admin')('GET', `/api/billing/sandbox/checkouts/${checkoutId}`);
    expect(page.status).toBe(404);
    for (const who of MANAGERS) {
      const overview = await as(who)('GET', '/api/billing/overview');
      expect(overview.status, `${who}: ${overview.text}`).toBe(200);
      expect(overview.body.invoices[0].id).toBe(invoiceId);
    }
  });

  it('is told by the accounts list that it does not manage billing, nor add clients', async () => {
    const canManage = async (who: string) => {
      const answer = await as(who)('GET', '/api/accounts');
      return answer.body.accounts.find((account: { id: string }) => account.id === accountId).canManageBilling;
    };
    for (const who of CLIENTS) expect(await canManage(who), who).toBe(false);
    for (const who of MANAGERS) expect(await canManage(who), who).toBe(true);
    const refused = await as('alpha-admin')('POST', '/api/subaccounts', { accountId, name: 'Client Gamma' });
    expect(refused.status).toBe(404);
    const created = await as('staff-admin')('POST', '/api/subaccounts', { accountId, name: 'Client Gamma' });
    expect(created.status, created.text).toBe(201);
    // The staff admin is admin of the new client too, so still the agency's manager.
    expect(await canManage('staff-admin')).toBe(true);
  });

  it('an API key, bound to one sub-account, sees that sub-account only', async () => {
    const created = await as('owner')('POST', '/api/api-keys', { name: 'Alpha integration' });
    expect(created.status, created.text).toBe(201);
    const headers = { authorization: `Bearer ${created.body.key}` };
    const listed = await t.app.inject({ url: '/api/billing/allowances', headers });
    expect(listed.json().subaccounts.map((row: { subaccountId: string }) => row.subaccountId)).toEqual([alpha]);
    expect((await t.app.inject({ url: '/api/billing/overview', headers })).statusCode).toBe(403);
  });
});
