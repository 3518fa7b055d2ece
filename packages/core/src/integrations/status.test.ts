import { describe, expect, it } from 'vitest';
import { integrationStatus } from './status';

describe('integration status store', () => {
  it('marks a pending record as trigger not connected and maps lower-case names to booleans', () => {
    expect(
      integrationStatus([
        { id: 'icn_1', appSlug: 'Gmail', status: 'pending_connection' },
        { id: 'icn_2', appSlug: 'sandbox_calendar', status: 'connected' },
        { id: 'icn_3', appSlug: 'slack', status: 'auth_required' },
      ]),
    ).toEqual({
      integrations: { gmail: false, sandbox_calendar: true, slack: false },
      entries: {
        'connection:icn_1': 'pending_connection',
        'connection:icn_2': 'connected',
        'connection:icn_3': 'auth_required',
        'trigger:gmail': 'not_connected',
        'trigger:sandbox_calendar': 'connected',
        'trigger:slack': 'auth_required',
      },
    });
  });

  it('lets a connected record win over a pending one of the same app', () => {
    const status = integrationStatus([
      { id: 'icn_1', appSlug: 'crm', status: 'pending_connection' },
      { id: 'icn_2', appSlug: 'crm', status: 'connected' },
    ]);
    expect(status.integrations).toEqual({ crm: true });
    expect(status.entries['trigger:crm']).toBe('connected');
  });
});
