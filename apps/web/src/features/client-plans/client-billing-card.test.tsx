import type { TClientBillingStatus, TClientPlanList } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ClientBillingCard } from './client-billing-card';
import { toMinor } from './plans-editor';

const render = (status: TClientBillingStatus, plans: TClientPlanList = { plans: [] }) => {
  const client = new QueryClient();
  client.setQueryData(['client-billing', 'acc_1'], status);
  client.setQueryData(['client-plans', 'acc_1'], plans);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ClientBillingCard accountId="acc_1" accountName="Alpha Agency" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

const STATUS: TClientBillingStatus = {
  included: true,
  stripe: null,
  webhookUrl: 'https://switchboard.example.com/api/client-billing/stripe-webhook/acc_1',
  sandbox: true,
  paymentsAvailable: true,
};

describe('the client billing card', () => {
  it('links to the plans when white-label sub-accounts are not included', () => {
    const html = render({ ...STATUS, included: false });
    expect(html).toContain('href="/pricing?unlock=whitelabel_subaccounts"');
    expect(html).not.toContain('Connect Stripe');
  });

  it('connects Stripe, says the sandbox is used until then, and shows the webhook address', () => {
    const html = render(STATUS);
    expect(html).toContain('Sandbox');
    expect(html).toContain('Connect Stripe');
    expect(html).toContain(STATUS.webhookUrl);
    expect(html).toContain('type="password"');
    expect(html).toContain('Download CSV');
  });

  it('shows a connected key by its last four characters and lists the plans', () => {
    const html = render(
      {
        ...STATUS,
        sandbox: false,
        stripe: {
          last4: '7890',
          mode: 'live',
          kind: 'secret',
          webhookSecretSet: true,
          connectedAt: '2026-11-01T00:00:00Z',
        },
      },
      {
        plans: [
          {
            id: 'cpl_1',
            name: 'Pro',
            priceMinor: 9900,
            currency: 'usd',
            includedCredits: 1000,
            extraCreditPriceMinor: null,
            archived: false,
            subscribers: 2,
            createdAt: '2026-11-01T00:00:00Z',
          },
        ],
      },
    );
    expect(html).toContain('7890');
    expect(html).toContain('Webhook secret saved.');
    expect(html).toContain('Disconnect');
    expect(html).toContain('$99.00');
    expect(html).toContain('2 clients');
    expect(html).toContain('Archive');
  });

  it('reads typed prices as minor units', () => {
    expect(toMinor('49.90')).toBe(4990);
    expect(toMinor('0,05', 4)).toBe(5);
    expect(toMinor('0.025', 4)).toBe(2.5);
    expect(Number.isNaN(toMinor('abc'))).toBe(true);
  });
});
