import type { TLaunchConnection } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConnectionCard } from './connection-card';

const record = (type: TLaunchConnection['type'], code: string, setupPath: string): TLaunchConnection => ({
  connectionId: 'con_1',
  subaccountId: 'sub_1',
  type,
  appSlug: type,
  name: 'Clinic Agent',
  status: 'error',
  error: { code, message: 'Refused.', actions: ['Update Credentials'] } as TLaunchConnection['error'],
  checklist: [{ key: 'credentials', label: `Channel in error (${code}): Refused.`, done: false, required: true }],
  sandbox: false,
  agentName: 'Clinic',
  pausedAt: null,
  setupPath,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const render = (value: TLaunchConnection) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <ConnectionCard record={value} canEdit />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('a connection in error on Launch', () => {
  it.each([
    ['sms', '/con_1/sms/campaigns', '/con_1/sms/campaigns?tab=settings'],
    ['whatsapp', '/con_1/whatsapp/campaigns', '/con_1/whatsapp/campaigns?tab=settings'],
    ['instagram', '/con_1/link3', '/con_1/link3?tab=settings'],
  ] as const)('%s: Update Credentials opens the settings tab; the checklist names the error', (type, setup, target) => {
    const html = render(record(type, type === 'instagram' ? 'META_AUTH_FAILED' : 'TWILIO_AUTH_FAILED', setup));
    expect(html).toMatch(new RegExp(`href="${target.replace('?', '\\?')}"[^>]*>Update Credentials</a>`));
    expect(html).toContain('Channel in error (');
    expect(html).toContain('(to do)');
  });
});
