import type { TClientPlanView } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ClientPlanView } from './client-plan-page';

const PLAN = {
  id: 'cpl_pro',
  name: 'Pro',
  priceMinor: 9900,
  currency: 'usd',
  includedCredits: 1000,
  extraCreditPriceMinor: 2.5,
  archived: false,
  subscribers: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
};

const render = (view: Partial<TClientPlanView>) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ClientPlanView
          view={{
            subaccountId: 'sub_1',
            subscription: null,
            usage: { month: '2026-11', used: 0, included: null },
            invoices: [],
            plans: [PLAN],
            sandbox: false,
            balance: {
              thresholds: [],
              topUpEnabled: false,
              topUpCredits: null,
              topUpBelowCredits: null,
              topUpPriceMinor: null,
              currency: null,
              topUpLastResult: null,
            },
            canManage: true,
            paymentsAvailable: true,
            ...view,
          }}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('the client plan page', () => {
  it('offers the plans with their price and credits, labelled Sandbox without the agency’s Stripe', () => {
    const html = render({ sandbox: true });
    expect(html).toContain('Sandbox');
    expect(html).toContain('Choose Pro');
    expect(html).toContain('$99.00');
    expect(html).toContain('1,000 credits a month, then $0.025 per extra credit');
    expect(html).toContain('No plan yet');
  });

  it('shows the current plan, the usage bar and the invoices; a viewer cannot choose', () => {
    const html = render({
      canManage: false,
      subscription: {
        plan: PLAN,
        status: 'active',
        currentPeriodStart: '2026-11-01T00:00:00.000Z',
        currentPeriodEnd: '2026-12-01T00:00:00.000Z',
        cancelAtPeriodEnd: false,
        sandbox: false,
      },
      usage: { month: '2026-11', used: 850, included: 1000 },
      invoices: [
        {
          id: 'cin_1',
          kind: 'subscription',
          amountMinor: 9900,
          currency: 'usd',
          status: 'paid',
          periodStart: '2026-11-01T00:00:00.000Z',
          periodEnd: '2026-12-01T00:00:00.000Z',
          paidAt: '2026-11-01T00:00:00.000Z',
          url: 'https://invoice.stripe.test/in_1',
          sandbox: false,
        },
      ],
    });
    expect(html).toContain('850 of 1,000 credits used this month');
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="850"');
    expect(html).toContain('Your current plan');
    expect(html).toContain('href="https://invoice.stripe.test/in_1"');
    expect(html).toContain('underline decoration-primary decoration-2');
    expect(html).not.toContain('Choose Pro');
    expect(html).not.toContain('Cancel at the end of the period');
    expect(html).toContain('Ask an admin of this account to change the plan.');
  });

  it('lets an admin set alerts and the top-up on a plan that stops at its credits', () => {
    const html = render({
      subscription: {
        plan: { ...PLAN, extraCreditPriceMinor: null },
        status: 'active',
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        sandbox: true,
      },
      balance: {
        thresholds: [50, 20],
        topUpEnabled: true,
        topUpCredits: 500,
        topUpBelowCredits: 100,
        topUpPriceMinor: 4950,
        currency: 'usd',
        topUpLastResult: '2026-11-27 05:00 UTC: bought 500 credits (Sandbox, no real charge).',
      },
    });
    expect(html).toContain('Alerts and top-up');
    expect(html).toContain('value="50, 20"');
    expect(html).toContain('Each top-up costs $49.50, at most once an hour.');
    expect(html).toContain('Sandbox, no real charge');
    expect(html).toContain('Cancel at the end of the period');
  });

  it('says so when the agency has not connected Stripe (production)', () => {
    const html = render({ paymentsAvailable: false });
    expect(html).toContain('This agency has not connected Stripe yet.');
    expect(html).not.toContain('Choose Pro');
  });
});
