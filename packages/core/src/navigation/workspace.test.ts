import { describe, expect, it } from 'vitest';
import {
  activeItemPath,
  canToggleThemeOn,
  headerTitleFor,
  isChannelActive,
  isShortLayout,
  showsConnectionSidebar,
  showsSettingsLink,
  WORKSPACE_MAIN_ITEMS,
  WORKSPACE_RESOURCE_ITEMS,
} from './workspace';

describe('workspace navigation rules', () => {
  it('titles the header by the last path segment', () => {
    expect(headerTitleFor('/build')).toBe('Build Agents');
    expect(headerTitleFor('/x/optimize')).toBe('Optimize & Improve');
    expect(headerTitleFor('/demo')).toBe('Demo Agents');
    expect(headerTitleFor('/marketplace')).toBe('AI Marketplace');
    expect(headerTitleFor('/connect')).toBe('Launch Agents');
    expect(headerTitleFor('/dashboard')).toBe('Bulk Tester');
    expect(headerTitleFor('/new-evaluation')).toBe('Bulk Tester');
    expect(headerTitleFor('/aimentor')).toBe('AI Mentor');
    expect(headerTitleFor('/apitester')).toBe('API Testing');
    expect(headerTitleFor('/howitworks')).toBe('Video Guides');
    expect(headerTitleFor('/support')).toBe('Support Center');
    expect(headerTitleFor('/usage')).toBe('Dashboard');
    expect(headerTitleFor('/')).toBe('Dashboard');
  });

  it('marks an item active on its path and below it, the longest match winning', () => {
    const items = [...WORKSPACE_MAIN_ITEMS, ...WORKSPACE_RESOURCE_ITEMS];
    expect(activeItemPath('/agents', items)).toBe('/agents');
    expect(activeItemPath('/agents/agt_1', items)).toBe('/agents');
    expect(activeItemPath('/agents/create', items)).toBe('/agents/create');
    expect(activeItemPath('/agentsx', items)).toBeUndefined();
    expect(activeItemPath('/usage/logs', items)).toBe('/usage');
  });

  it('uses the short layout under 1024 wide or 768 high', () => {
    expect(isShortLayout(1023, 900)).toBe(true);
    expect(isShortLayout(1280, 767)).toBe(true);
    expect(isShortLayout(1280, 800)).toBe(false);
  });

  it('applies the connection-area rules', () => {
    expect(showsConnectionSidebar('/sub_1/sms/campaigns')).toBe(false);
    expect(showsConnectionSidebar('/sub_1/team')).toBe(true);
    expect(showsSettingsLink('member')).toBe(false);
    expect(showsSettingsLink('viewer')).toBe(true);
    expect(showsSettingsLink(undefined)).toBe(false);
    expect(isChannelActive('/sub_1/sms/campaigns', ['sms', 'campaigns'], '/sub_1/sms/campaigns')).toBe(true);
    expect(isChannelActive('/sub_1/whatsapp/campaigns', ['sms', 'campaigns'], '/sub_1/sms/campaigns')).toBe(false);
    expect(canToggleThemeOn('/subaccounts/sub_1/agents')).toBe(true);
    expect(canToggleThemeOn('/agents')).toBe(false);
  });
});
