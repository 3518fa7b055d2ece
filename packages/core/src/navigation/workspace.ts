/** Workspace navigation rules (spec/workspace-widget-demos.md 2.1 to 2.3). */

export interface NavItem {
  label: string;
  path: string;
}

export const WORKSPACE_MAIN_ITEMS: NavItem[] = [
  { label: 'New Agent', path: '/agents/create' },
  { label: 'Agents', path: '/agents' },
  { label: 'Demo', path: '/demo' },
  { label: 'Launch', path: '/connect' },
  { label: 'Integrations', path: '/integrations' },
];

export const WORKSPACE_RESOURCE_ITEMS: NavItem[] = [
  { label: 'Usage', path: '/usage' },
  { label: 'Marketplace', path: '/marketplace' },
  { label: 'API Key', path: '/apitester' },
  { label: 'Community', path: '/howitworks' },
  { label: 'Support', path: '/support' },
  { label: 'Affiliate Program', path: '/affiliate' },
  { label: 'AI Mentor', path: '/aimentor' },
];

/**
 * An item is active when the path equals it or lies below it. Where several items match
 * (New Agent /agents/create lies below Agents /agents), the longest match wins.
 */
export const isPathActive = (pathname: string, itemPath: string): boolean =>
  pathname === itemPath || pathname.startsWith(`${itemPath}/`);

export const activeItemPath = (pathname: string, items: NavItem[]): string | undefined =>
  items.filter((item) => isPathActive(pathname, item.path)).sort((a, b) => b.path.length - a.path.length)[0]?.path;

const HEADER_TITLES: Record<string, string> = {
  build: 'Build Agents',
  optimize: 'Optimize & Improve',
  demo: 'Demo Agents',
  marketplace: 'AI Marketplace',
  connect: 'Launch Agents',
  dashboard: 'Bulk Tester',
  'new-evaluation': 'Bulk Tester',
  aimentor: 'AI Mentor',
  apitester: 'API Testing',
  howitworks: 'Video Guides',
  support: 'Support Center',
  mcp: 'MCP Servers',
};

export const lastPathSegment = (pathname: string): string => pathname.split('/').filter(Boolean).at(-1) ?? '';

/** Header title by the last path segment; anything else is Dashboard. */
export const headerTitleFor = (pathname: string): string => HEADER_TITLES[lastPathSegment(pathname)] ?? 'Dashboard';

/** Short-height layout when width is under 1024 or height under 768. */
export const isShortLayout = (width: number, height: number): boolean => width < 1024 || height < 768;

export const SIDEBAR_COLLAPSED_WIDTH = 70;
export const SIDEBAR_EXPANDED_WIDTH = 240;
export const SIDEBAR_DRAWER_WIDTH = 280;

/** The mobile menu button is hidden on agents workspace paths. */
export const isAgentsWorkspacePath = (pathname: string): boolean => isPathActive(pathname, '/agents');

/** Connection-area channel links of the AI AGENTS group (2.1, 2.2). */
export const channelItems = (connectId: string): (NavItem & { activeSegments: string[] })[] => [
  { label: 'SMS Agent', path: `/${connectId}/sms/campaigns`, activeSegments: ['sms', 'campaigns'] },
  { label: 'WhatsApp Agent', path: `/${connectId}/whatsapp/campaigns`, activeSegments: ['whatsapp'] },
  { label: 'Instagram Agent', path: `/${connectId}/link3`, activeSegments: ['link3'] },
  { label: 'Website Widget', path: `/${connectId}/website-widget`, activeSegments: ['website-widget'] },
  { label: 'Website Block', path: `/${connectId}/website-block`, activeSegments: ['website-block'] },
];

/** A channel link is active when the last path segment is one of its segments. */
export const isChannelActive = (pathname: string, activeSegments: string[], itemPath: string): boolean => {
  const last = lastPathSegment(pathname);
  if (activeSegments.includes('sms')) {
    return last === 'sms' || (last === 'campaigns' && pathname.includes('/sms/'));
  }
  if (activeSegments.includes('whatsapp')) return pathname.includes('/whatsapp');
  return isPathActive(pathname, itemPath);
};

/** The connection-area sidebar shows on every page except login and any path containing /sms/. */
export const showsConnectionSidebar = (pathname: string): boolean =>
  !pathname.includes('/sms/') && !pathname.startsWith('/api/auth/signin');

/** The Settings link shows only to non-members once roles have loaded. */
export const showsSettingsLink = (role: string | undefined): boolean => role !== undefined && role !== 'member';

/** The Light/Dark toggle is offered only on paths containing /subaccounts/. */
export const canToggleThemeOn = (pathname: string): boolean => pathname.includes('/subaccounts/');
