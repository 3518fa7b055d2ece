import { describe, expect, it } from 'vitest';
import { roleAtLeast } from '../tenancy/schemas';
import { clientAccessOf, DEFAULT_CLIENT_ACCESS, slugFromName, ZAgencySlug, ZPatchClientAccessRequest } from './schemas';

describe('the client role', () => {
  it('is below every other role, so a rule admits a client only where it names clients', () => {
    expect(roleAtLeast('client', 'viewer')).toBe(false);
    expect(roleAtLeast('client', 'member')).toBe(false);
    expect(roleAtLeast('viewer', 'client')).toBe(true);
    expect(roleAtLeast('client', 'client')).toBe(true);
  });

  it('has the inbox on and editing agents and campaigns off by default', () => {
    expect(DEFAULT_CLIENT_ACCESS).toEqual({ editAgents: false, inbox: true, campaigns: false });
    expect(clientAccessOf(null)).toEqual(DEFAULT_CLIENT_ACCESS);
    expect(clientAccessOf({ campaigns: true })).toEqual({ editAgents: false, inbox: true, campaigns: true });
    expect(clientAccessOf({ inbox: 'yes' })).toEqual(DEFAULT_CLIENT_ACCESS);
  });

  it('takes one or more known switches only', () => {
    expect(ZPatchClientAccessRequest.safeParse({}).success).toBe(false);
    expect(ZPatchClientAccessRequest.safeParse({ billing: true }).success).toBe(false);
    expect(ZPatchClientAccessRequest.safeParse({ inbox: false }).success).toBe(true);
  });
});

describe('agency slugs', () => {
  it.each(['acme', 'acme-ai', 'a1b', 'x'.repeat(40)])('accepts %s', (slug) => {
    expect(ZAgencySlug.safeParse(slug).success).toBe(true);
  });

  it.each(['ab', 'x'.repeat(41), 'Acme', 'acme_ai', '-acme', 'acme-', 'ac me', 'admin', 'api', 'switchboard'])(
    'refuses %s',
    (slug) => {
      expect(ZAgencySlug.safeParse(slug).success).toBe(false);
    },
  );

  it('makes a valid slug from any name', () => {
    expect(slugFromName('Acme Automation, Inc.')).toBe('acme-automation-inc');
    expect(slugFromName('Café Crème')).toBe('cafe-creme');
    expect(slugFromName('AI')).toBe('ai-agency');
    expect(slugFromName('Admin')).toBe('admin-agency');
    expect(slugFromName('!!!')).toBe('agency');
    for (const name of ['AI', 'Admin', '日本', 'x'.repeat(80), 'a--b', 'Acme Automation, Inc.']) {
      expect([name, ZAgencySlug.safeParse(slugFromName(name, 33)).success]).toEqual([name, true]);
    }
  });
});
