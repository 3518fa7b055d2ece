import type { TAccountDomainResponse } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CustomDomainCard } from './custom-domain-card';

const render = (data: TAccountDomainResponse) => {
  const client = new QueryClient();
  client.setQueryData(['account-domain', 'acc_1'], data);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CustomDomainCard accountId="acc_1" accountName="Alpha Agency" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

describe('the custom domain card', () => {
  it('says the plan does not include it and links to the plans', () => {
    const html = render({ included: false, domain: null });
    expect(html).toContain('Your plan does not include a custom domain');
    expect(html).toContain('href="/pricing?unlock=whitelabel_branding"');
    expect(html).not.toContain('Add domain');
  });

  it('shows a pending domain with both ways to verify, the token and the Verify button', () => {
    const html = render({
      included: true,
      domain: {
        hostname: 'portal.agency.com',
        method: 'dns',
        status: 'failed',
        token: 'sbv_token123',
        httpUrl: 'http://portal.agency.com/.well-known/switchboard-domain-verification',
        txtName: '_switchboard.portal.agency.com',
        lastCheckedAt: '2025-01-01T00:00:00.000Z',
        lastCheckResult: 'No TXT record _switchboard.portal.agency.com was found yet.',
        verifiedAt: null,
        createdAt: '2025-01-01T00:00:00.000Z',
      },
    });
    expect(html).toContain('Check failed');
    expect(html).toContain('_switchboard.portal.agency.com');
    expect(html).toContain('http://portal.agency.com/.well-known/switchboard-domain-verification');
    expect(html).toContain('sbv_token123');
    expect(html).toContain('No TXT record');
    expect(html).toContain('>Verify<');
    // The chosen way (DNS) comes first.
    expect(html.indexOf('DNS TXT record (chosen)')).toBeLessThan(html.indexOf('Over HTTP'));
  });
});
