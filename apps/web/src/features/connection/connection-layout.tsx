import {
  CHANNEL_STATE_LABELS,
  CONNECT_ID_PATTERN,
  channelItems,
  isChannelActive,
  isPathActive,
  showsConnectionSidebar,
  showsSettingsLink,
  type TRole,
  type TSmsSettings,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CreditCard, Inbox, LayoutDashboard, Menu, Plus, Settings, UsersRound, X } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { NotFoundPage } from '../../app/not-found-page';
import { Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { StateDot } from '../launch/state-badge';
import { statusStore, useLaunch } from '../launch/use-launch';
import { PortalLayout } from '../portal/portal-layout';
import { PageSuspense } from '../routing';
import { useSession } from '../session/session';
import { ThemeScope } from '../theme/theme';
import { AccountSwitcher, LockedExplanation } from './account-switcher';

export interface ConnectContext {
  connectId: string;
  subaccountId: string;
  accountId: string;
  role: TRole;
}

/** Resolves a {connectId} (a sub-account or something that belongs to one) for the connection area. */
export const useConnectContext = () => {
  const { connectId = '' } = useParams();
  return useQuery({
    queryKey: ['connect-context', connectId],
    queryFn: () => api<ConnectContext>(`/api/connect-context/${encodeURIComponent(connectId)}`, { silent: true }),
    enabled: Boolean(connectId),
    retry: false,
    staleTime: 60_000,
  });
};

const SideLink = ({
  to,
  active,
  icon,
  children,
  onNavigate,
}: {
  to: string;
  active: boolean;
  icon: ReactNode;
  children: ReactNode;
  onNavigate?: () => void;
}) => (
  <li>
    <Link
      to={to}
      onClick={onNavigate}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex h-9 items-center gap-3 rounded-lg px-3 text-sm',
        active ? 'bg-primary text-primary-foreground' : 'hover:bg-surface-2',
      )}
    >
      {icon}
      <span className="truncate">{children}</span>
    </Link>
  </li>
);

/** The app of each AI AGENTS link, in the order of channelItems. */
const SIDEBAR_CHANNELS = ['sms', 'whatsapp', 'instagram', 'website-widget', 'website-block'];

const ConnectionSidebar = ({ context, onNavigate }: { context: ConnectContext; onNavigate?: () => void }) => {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { selectSubaccount } = useSession();
  const { connectId } = context;
  const settings = useQuery({
    queryKey: ['sms-settings', connectId],
    queryFn: () => api<TSmsSettings>(`/api/sms/${connectId}/settings`, { silent: true }),
    retry: false,
  });
  // Each channel link says whether the channel is live, paused, failing or not connected.
  const launch = useLaunch({ subaccountId: context.subaccountId });
  return (
    <div className="flex h-full flex-col gap-4 p-3">
      <AccountSwitcher
        currentId={context.subaccountId}
        title={settings.data?.companyName}
        logoUrl={settings.data?.logoUrl}
        onSelect={(id) => {
          selectSubaccount(id);
          navigate(`/${id}/dashboard`);
          onNavigate?.();
        }}
      />
      <nav aria-label="Account" className="flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto">
        <ul>
          <SideLink
            to={`/${connectId}/dashboard`}
            active={isPathActive(pathname, `/${connectId}/dashboard`)}
            icon={<LayoutDashboard size={18} aria-hidden="true" />}
            onNavigate={onNavigate}
          >
            Dashboard
          </SideLink>
          <SideLink
            to={`/${connectId}/inbox`}
            active={isPathActive(pathname, `/${connectId}/inbox`)}
            icon={<Inbox size={18} aria-hidden="true" />}
            onNavigate={onNavigate}
          >
            Inbox
          </SideLink>
        </ul>
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">AI AGENTS</h2>
          <ul className="space-y-1">
            {channelItems(connectId).map((item, index) => {
              const state = launch.data
                ? statusStore.channelState(context.subaccountId, SIDEBAR_CHANNELS[index] ?? '')
                : null;
              return (
                <SideLink
                  key={item.path}
                  to={item.path}
                  active={isChannelActive(pathname, item.activeSegments, item.path)}
                  icon={
                    state ? (
                      <StateDot state={state} />
                    ) : (
                      <span className="h-2 w-2 rounded-full bg-current opacity-60" aria-hidden="true" />
                    )
                  }
                  onNavigate={onNavigate}
                >
                  {item.label}
                  {state ? <span className="sr-only"> ({CHANNEL_STATE_LABELS[state]})</span> : null}
                </SideLink>
              );
            })}
          </ul>
          <Link
            to={`/${connectId}/add-agent`}
            onClick={onNavigate}
            className="mt-2 flex h-9 items-center justify-center gap-2 rounded-lg border border-dashed border-border text-sm hover:bg-surface-2"
          >
            <Plus size={16} aria-hidden="true" /> Add agent
          </Link>
        </div>
        <div>
          <h2 className="px-3 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">Admin</h2>
          <ul className="space-y-1">
            <SideLink
              to={`/${connectId}/team`}
              active={isPathActive(pathname, `/${connectId}/team`)}
              icon={<UsersRound size={18} aria-hidden="true" />}
              onNavigate={onNavigate}
            >
              Team
            </SideLink>
            <SideLink
              to={`/${connectId}/plan`}
              active={isPathActive(pathname, `/${connectId}/plan`)}
              icon={<CreditCard size={18} aria-hidden="true" />}
              onNavigate={onNavigate}
            >
              Plan
            </SideLink>
            {showsSettingsLink(context.role) ? (
              <SideLink
                to={`/${connectId}/ai-settings`}
                active={isPathActive(pathname, `/${connectId}/ai-settings`)}
                icon={<Settings size={18} aria-hidden="true" />}
                onNavigate={onNavigate}
              >
                Settings
              </SideLink>
            ) : null}
          </ul>
        </div>
      </nav>
      <Link
        to="/agents"
        onClick={onNavigate}
        className="flex items-center gap-2 px-3 text-sm text-muted hover:text-foreground"
      >
        <ArrowLeft size={16} aria-hidden="true" /> Back to workspace
      </Link>
    </div>
  );
};

/** The connection area: /{connectId}/... pages with the account switcher and channel navigation. */
export const ConnectionLayout = () => {
  const { user, loading, subaccounts, currentSubaccount, selectSubaccount } = useSession();
  const { pathname } = useLocation();
  const { connectId = '' } = useParams();
  const context = useConnectContext();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The sub-account whose pages are open is the workspace's current one: what these pages ask the
  // API (templates, test sets, usage) is about it, and the workspace returns to it.
  const openSubaccountId = context.data?.subaccountId;
  useEffect(() => {
    if (openSubaccountId && currentSubaccount?.id !== openSubaccountId) selectSubaccount(openSubaccountId);
  }, [openSubaccountId, currentSubaccount?.id, selectSubaccount]);

  // A first segment that is no page and no id (/nonsense) is simply not found, signed in or not.
  if (!CONNECT_ID_PATTERN.test(connectId)) return <NotFoundPage />;

  if (loading)
    return (
      <Centered>
        <Spinner label="Loading account" />
      </Centered>
    );
  if (!user) return <Navigate to={`/?signin=1&returnUrl=${encodeURIComponent(pathname)}`} replace />;
  if (context.isLoading)
    return (
      <Centered>
        <Spinner label="Loading account" />
      </Centered>
    );
  if (!context.data) {
    return (
      <Centered>
        <div className="text-center">
          <h1 className="text-xl font-semibold">Account not found</h1>
          <p className="mt-2 text-sm text-muted">It does not exist or you are not a member of it.</p>
          <Link to="/agents" className="mt-4 inline-block underline decoration-primary decoration-2">
            Go to your workspace
          </Link>
        </div>
      </Centered>
    );
  }
  const lockedSubaccount = subaccounts.find((item) => item.id === context.data?.subaccountId && item.locked);
  if (lockedSubaccount) {
    return (
      <Centered>
        <div className="max-w-md">
          <h1 className="mb-3 text-xl font-semibold">{lockedSubaccount.name} is locked</h1>
          <LockedExplanation accountId={lockedSubaccount.accountId} />
        </div>
      </Centered>
    );
  }
  if (context.data.role === 'client') {
    return <PortalLayout subaccountId={context.data.subaccountId} outletContext={context.data} />;
  }
  const withSidebar = showsConnectionSidebar(pathname);

  return (
    <ThemeScope connectId={context.data.connectId}>
      <div className="min-h-screen bg-background text-foreground md:flex">
        {withSidebar ? (
          <>
            <aside
              aria-label="Sidebar"
              className="hidden w-[240px] shrink-0 border-r border-border bg-surface md:block"
            >
              <div className="sticky top-0 h-screen">
                <ConnectionSidebar context={context.data} />
              </div>
            </aside>
            <div className="flex h-14 items-center border-b border-border px-3 md:hidden">
              <button
                type="button"
                aria-label="Open menu"
                className="rounded-md p-2 hover:bg-surface-2"
                onClick={() => setDrawerOpen(true)}
              >
                <Menu size={20} />
              </button>
            </div>
            {drawerOpen ? (
              <>
                <button
                  type="button"
                  aria-label="Close menu"
                  className="fixed inset-0 z-40 bg-black/50 md:hidden"
                  onClick={() => setDrawerOpen(false)}
                />
                <aside
                  aria-label="Sidebar menu"
                  className="fixed inset-y-0 left-0 z-50 w-[280px] border-r border-border bg-surface md:hidden"
                >
                  <button
                    type="button"
                    aria-label="Close menu"
                    className="absolute top-3 right-3 rounded-md p-1 text-muted hover:bg-surface-2"
                    onClick={() => setDrawerOpen(false)}
                  >
                    <X size={18} />
                  </button>
                  <div className="h-full pt-8">
                    <ConnectionSidebar context={context.data} onNavigate={() => setDrawerOpen(false)} />
                  </div>
                </aside>
              </>
            ) : null}
          </>
        ) : null}
        <main className="min-w-0 flex-1 p-4 sm:p-6">
          <PageSuspense>
            <Outlet context={context.data} />
          </PageSuspense>
        </main>
      </div>
    </ThemeScope>
  );
};

const Centered = ({ children }: { children: ReactNode }) => (
  <div className="flex min-h-screen items-center justify-center p-4">{children}</div>
);
