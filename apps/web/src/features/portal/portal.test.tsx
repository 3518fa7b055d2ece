import type { TPortalBranding } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AgencySignIn } from './agency-sign-in-page';
import { ClientAccessCard } from './client-access-card';
import { PortalLayout } from './portal-layout';
import { isPortalPath, portalNavItems } from './portal-nav';

vi.mock('../session/session', () => ({
  useSession: () => ({ user: null, loading: false, signOut: async () => undefined }),
}));

const brand = (whiteLabel: boolean): TPortalBranding => ({
  slug: 'acme',
  name: 'Acme AI',
  logoUrl: 'https://cdn.acme.test/logo.png',
  primaryColor: '#aa3366',
  whiteLabel,
});

const render = (node: React.ReactNode, client = new QueryClient()) =>
  renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

describe("an agency's sign-in page", () => {
  it('shows the agency and no platform name under white-label', () => {
    const html = render(<AgencySignIn branding={brand(true)} />);
    expect(html).toContain('Sign in to Acme AI');
    expect(html).toContain('src="https://cdn.acme.test/logo.png"');
    expect(html).toContain('--primary:#aa3366');
    expect(html).toContain('for="portal-email"');
    expect(html).not.toMatch(/switchboard/i);
  });

  it('says "Powered by Switchboard" without white-label branding', () => {
    expect(render(<AgencySignIn branding={brand(false)} />)).toContain('Powered by Switchboard');
  });
});

describe('the client portal navigation', () => {
  const off = { editAgents: false, inbox: false, campaigns: false };
  it('lists agents, conversations, usage and plan; campaigns and the inbox only when allowed', () => {
    expect(portalNavItems('sub_1', off).map((item) => item.label)).toEqual([
      'Agents',
      'Conversations',
      'Usage',
      'Plan',
    ]);
    expect(portalNavItems('sub_1', { ...off, inbox: true, campaigns: true }).map((item) => item.path)).toEqual([
      '/agents',
      '/sub_1/inbox',
      '/sub_1/sms/campaigns',
      '/usage',
      '/sub_1/plan',
    ]);
  });

  it("opens the portal's pages only", () => {
    for (const path of [
      '/agents',
      '/agents/agt_1',
      '/usage',
      '/sub_1/plan',
      '/sub_1/conversations',
      '/sub_1/inbox',
      '/con_1/conversations',
    ]) {
      expect([path, isPortalPath(path, 'sub_1', off)]).toEqual([path, true]);
    }
    for (const path of [
      '/agents/create',
      '/marketplace',
      '/affiliate',
      '/settings',
      '/operator',
      '/apitester',
      '/sub_1/team',
      '/sub_1/ai-settings',
      '/sub_2/plan',
      '/sub_1/sms/campaigns',
      '/subaccounts/sub_2/agents',
    ]) {
      expect([path, isPortalPath(path, 'sub_1', off)]).toEqual([path, false]);
    }
    expect(isPortalPath('/sub_1/sms/campaigns', 'sub_1', { ...off, campaigns: true })).toBe(true);
  });
});

describe('the client access card', () => {
  it('shows each switch with its state and an accessible name', () => {
    const client = new QueryClient();
    client.setQueryData(['client-access', 'sub_1'], {
      subaccountId: 'sub_1',
      access: { editAgents: false, inbox: true, campaigns: false },
    });
    const html = render(<ClientAccessCard subaccountId="sub_1" subaccountName="Bakery" />, client);
    expect(html).toContain('Client access');
    expect(html).toContain('people you invite to Bakery with the Client role');
    expect(html).toMatch(/id="client-access-inbox"[^>]*role="switch"[^>]*aria-checked="true"/);
    expect(html).toMatch(/id="client-access-editAgents"[^>]*role="switch"[^>]*aria-checked="false"/);
    expect(html).toContain('for="client-access-campaigns"');
  });
});

describe('the portal layout', () => {
  const renderPortal = (whiteLabel: boolean, access = { editAgents: false, inbox: true, campaigns: false }) => {
    const client = new QueryClient();
    client.setQueryData(['portal-context', 'sub_1'], {
      subaccountId: 'sub_1',
      accountId: 'acc_1',
      isClient: true,
      access,
      branding: brand(whiteLabel),
    });
    return renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/agents']}>
          <PortalLayout subaccountId="sub_1" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  };

  it("shows the agency's brand and the portal's entries only, no platform name under white-label", () => {
    const html = renderPortal(true);
    expect(html).toContain('Acme AI');
    expect(html).toContain('aria-label="Portal"');
    for (const entry of ['>Agents<', '>Inbox<', '>Usage<', '>Plan<']) expect(html).toContain(entry);
    for (const absent of [
      'Campaigns',
      'Marketplace',
      'Affiliate',
      'Settings',
      'Team',
      'Billing',
      'Operator',
      'Launch',
    ]) {
      expect([absent, html.includes(absent)]).toEqual([absent, false]);
    }
    expect(html).not.toMatch(/switchboard/i);
  });

  it('lists Campaigns when allowed and says "Powered by Switchboard" without white-label', () => {
    const html = renderPortal(false, { editAgents: false, inbox: false, campaigns: true });
    expect(html).toContain('>Campaigns<');
    expect(html).toContain('>Conversations<');
    expect(html).toContain('Powered by Switchboard');
  });
});
