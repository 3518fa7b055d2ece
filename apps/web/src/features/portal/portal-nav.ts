import type { TClientAccess } from '@switchboard/core';

export interface PortalNavItem {
  label: string;
  path: string;
}

/** What a client's portal lists: its agents, conversations (the inbox of every channel), campaigns when allowed, usage and plan. */
export const portalNavItems = (subaccountId: string, access: TClientAccess): PortalNavItem[] => [
  { label: 'Agents', path: '/agents' },
  { label: access.inbox ? 'Inbox' : 'Conversations', path: `/${subaccountId}/inbox` },
  ...(access.campaigns ? [{ label: 'Campaigns', path: `/${subaccountId}/sms/campaigns` }] : []),
  { label: 'Usage', path: '/usage' },
  { label: 'Plan', path: `/${subaccountId}/plan` },
];

/**
 * Whether a client may open a path of the app: the portal's pages only. An agent page lies under
 * /agents (not the agency's New Agent page); conversations of any of the sub-account's connections.
 */
export const isPortalPath = (pathname: string, subaccountId: string, access: TClientAccess): boolean => {
  if (pathname === '/agents/create') return false;
  if (pathname === '/agents' || pathname.startsWith('/agents/')) return true;
  if (pathname === `/subaccounts/${subaccountId}/agents`) return true;
  if (pathname === '/usage') return true;
  const [, first = '', ...rest] = pathname.split('/');
  const tail = rest.join('/');
  if (first === subaccountId && (tail === 'plan' || tail === 'conversations' || tail === 'inbox')) return true;
  if (first.startsWith('con_') && tail === 'conversations') return true;
  return access.campaigns && first === subaccountId && tail === 'sms/campaigns';
};
