import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { settleReactions } from '../../testing/reactions';
import { billingAccounts } from '../billing/schema';
import { applySubscription } from '../billing/sync';
import { PLAN_LOST_MESSAGE, RECHECK_AFTER_MS, RECHECK_FAILURES_ALLOWED, recheckDomains } from './recheck';
import { agencyDomains } from './schema';
import { confirmByOperator } from './service';

/** TXT records come from `txt`: the DNS check runs as in production, only the resolver is a stand-in. */
const dnsStub = vi.hoisted(() => ({ txt: new Map<string, string[][]>(), reads: [] as string[] }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const resolveTxt = async (name: string) => {
    dnsStub.reads.push(name);
    const found = dnsStub.txt.get(name);
    if (found) return found;
    throw Object.assign(new Error(`queryTxt ENODATA ${name}`), { code: 'ENODATA' });
  };
  return { ...actual, resolveTxt, default: { ...actual, resolveTxt } };
});

const PUBLIC_URL = 'https://switchboard.example.com';
const SCALE = 'sb_scale_month_10000';
const pass = () => new AbortController().signal;

describe('verified domains over time', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL, SIGNIN_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /** An agency on a plan with white-label branding, its domain verified by its own DNS check. */
  const verifiedAgency = async (name: string, hostname: string) => {
    const slug = name.toLowerCase().replace(/\W+/g, '-');
    const agency = await seedAgency(t.deps.db, {
      accountName: name,
      owner: { email: `owner@${slug}.test`, name: 'Owner' },
      subaccounts: ['Main'],
      plan: SCALE,
    });
    const cookie = await t.cookieFor(agency.ownerId);
    const call = (method: 'GET' | 'PUT' | 'POST', path = '', payload?: object) =>
      t.app.inject({
        method,
        url: `/api/accounts/${agency.accountId}/domain${path}`,
        headers: { cookie },
        ...(payload ? { payload } : {}),
      });
    const token = (await call('PUT', '', { hostname, method: 'dns' })).json().token as string;
    dnsStub.txt.set(`_switchboard.${hostname}`, [[token]]);
    expect((await call('POST', '/verify')).json()).toMatchObject({ status: 'verified' });
    return { ...agency, call };
  };

  const linkOrigin = async (email: string, host: string) => {
    await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/magic-link', headers: { host }, payload: { email } });
    const mailbox = (await t.app.inject({ url: '/api/dev/mailbox' })).json();
    // The newest mail comes first.
    return new URL(mailbox.messages.find((m: { to: string }) => m.to === email).link).origin;
  };

  /** Makes the domain's last check look a day and a minute old. */
  const age = (accountId: string) =>
    t.deps.db
      .update(agencyDomains)
      .set({ lastCheckedAt: new Date(Date.now() - RECHECK_AFTER_MS - 60_000) })
      .where(eq(agencyDomains.accountId, accountId));

  const domainOf = async (agency: { call: (method: 'GET') => Promise<{ json(): { domain: unknown } }> }) =>
    (await agency.call('GET')).json().domain;

  it('checks a verified domain again after a day, and not before', async () => {
    const agency = await verifiedAgency('Daily Agency', 'daily.agency.test');
    const before = dnsStub.reads.length;
    await recheckDomains(t.deps, pass());
    expect(dnsStub.reads.length).toBe(before);
    await age(agency.accountId);
    await recheckDomains(t.deps, pass());
    expect(dnsStub.reads.slice(before)).toEqual(['_switchboard.daily.agency.test']);
    expect(await domainOf(agency)).toMatchObject({ status: 'verified' });
  });

  it(`ends a verification after ${RECHECK_FAILURES_ALLOWED} failed daily checks in a row, and links stop using the host`, async () => {
    const agency = await verifiedAgency('Lapsed Agency', 'lapsed.agency.test');
    expect(await linkOrigin('owner@lapsed-agency.test', 'lapsed.agency.test')).toBe('https://lapsed.agency.test');
    dnsStub.txt.delete('_switchboard.lapsed.agency.test');
    for (let failure = 1; failure < RECHECK_FAILURES_ALLOWED; failure += 1) {
      await age(agency.accountId);
      await recheckDomains(t.deps, pass());
      expect(await domainOf(agency)).toMatchObject({
        status: 'verified',
        lastCheckResult: expect.stringContaining('No TXT record'),
      });
    }
    // A success in between starts the count again.
    const token = (await domainOf(agency)) as { token: string };
    dnsStub.txt.set('_switchboard.lapsed.agency.test', [[token.token]]);
    await age(agency.accountId);
    await recheckDomains(t.deps, pass());
    dnsStub.txt.delete('_switchboard.lapsed.agency.test');
    for (let failure = 1; failure <= RECHECK_FAILURES_ALLOWED; failure += 1) {
      expect(await domainOf(agency)).toMatchObject({ status: 'verified' });
      await age(agency.accountId);
      await recheckDomains(t.deps, pass());
    }
    expect(await domainOf(agency)).toMatchObject({
      status: 'failed',
      verifiedAt: null,
      lastCheckResult: expect.stringMatching(/^No longer verified after 3 failed daily checks: No TXT record/),
    });
    expect(await linkOrigin('owner@lapsed-agency.test', 'lapsed.agency.test')).toBe(PUBLIC_URL);
  });

  it('keeps a domain an operator confirmed without checking it again', async () => {
    const agency = await verifiedAgency('Vouched Agency', 'vouched.agency.test');
    dnsStub.txt.delete('_switchboard.vouched.agency.test');
    await agency.call('PUT', '', { hostname: 'vouched2.agency.test', method: 'dns' });
    await confirmByOperator(t.deps, 'vouched2.agency.test');
    await age(agency.accountId);
    const before = dnsStub.reads.length;
    await recheckDomains(t.deps, pass());
    expect(dnsStub.reads.length).toBe(before);
    expect(await domainOf(agency)).toMatchObject({ status: 'verified', hostname: 'vouched2.agency.test' });
  });

  it('stops the domain as soon as the plan loses white-label branding, and the hourly pass catches a missed change', async () => {
    const agency = await verifiedAgency('Downgraded Agency', 'downgraded.agency.test');
    expect(await linkOrigin('owner@downgraded-agency.test', 'downgraded.agency.test')).toBe(
      'https://downgraded.agency.test',
    );
    const [billing] = await t.deps.db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.accountId, agency.accountId));
    await t.deps.db.transaction((tx) =>
      applySubscription(
        t.deps,
        tx,
        agency.accountId,
        {
          id: billing?.subscriptionId ?? 'sub_downgraded',
          customerId: billing?.customerId ?? 'cus_downgraded',
          accountId: agency.accountId,
          status: 'canceled',
          priceId: null,
          amountCents: 0,
          currentPeriodStart: null,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          scheduleId: null,
          scheduledPriceId: null,
          scheduledChangeDate: null,
        },
        new Date(),
      ),
    );
    await settleReactions(t.deps);
    expect(await domainOf(agency)).toMatchObject({ status: 'failed', lastCheckResult: PLAN_LOST_MESSAGE });
    expect(await linkOrigin('owner@downgraded-agency.test', 'downgraded.agency.test')).toBe(PUBLIC_URL);
    expect((await agency.call('POST', '/verify')).statusCode).toBe(403);

    // A verified domain on a free plan that no event announced: the pass stops it.
    await t.deps.db
      .update(agencyDomains)
      .set({ status: 'verified', verifiedBy: 'check', lastCheckedAt: new Date() })
      .where(eq(agencyDomains.accountId, agency.accountId));
    await recheckDomains(t.deps, pass());
    expect(await domainOf(agency)).toMatchObject({ status: 'failed', lastCheckResult: PLAN_LOST_MESSAGE });
  });
});
