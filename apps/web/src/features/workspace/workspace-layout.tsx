import {
  activeItemPath,
  headerTitleFor,
  isAgentsWorkspacePath,
  isShortLayout,
  type NavItem,
  WORKSPACE_MAIN_ITEMS,
  WORKSPACE_RESOURCE_ITEMS,
} from '@switchboard/core';
import {
  BarChart3,
  Bot,
  ChevronDown,
  ChevronLeft,
  Gift,
  GraduationCap,
  KeyRound,
  LifeBuoy,
  Menu,
  Plug,
  Presentation,
  Rocket,
  ShoppingBag,
  Sparkles,
  Users,
  X,
} from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { AccountSwitcher } from '../connection/account-switcher';
import { PortalLayout } from '../portal/portal-layout';
import { PageSuspense } from '../routing';
import { useSession } from '../session/session';
import { ThemeScope } from '../theme/theme';
import { AccountMenu } from './account-menu';
import { PageHeaderProvider, usePageHeaderState } from './page-header';

const ICONS: Record<string, ReactNode> = {
  '/agents/create': <Sparkles size={20} aria-hidden="true" />,
  '/agents': <Bot size={20} aria-hidden="true" />,
  '/demo': <Presentation size={20} aria-hidden="true" />,
  '/connect': <Rocket size={20} aria-hidden="true" />,
  '/integrations': <Plug size={20} aria-hidden="true" />,
  '/usage': <BarChart3 size={20} aria-hidden="true" />,
  '/marketplace': <ShoppingBag size={20} aria-hidden="true" />,
  '/apitester': <KeyRound size={20} aria-hidden="true" />,
  '/howitworks': <Users size={20} aria-hidden="true" />,
  '/support': <LifeBuoy size={20} aria-hidden="true" />,
  '/affiliate': <Gift size={20} aria-hidden="true" />,
  '/aimentor': <GraduationCap size={20} aria-hidden="true" />,
};

const readViewport = () => ({ width: window.innerWidth, height: window.innerHeight });

const useViewport = () => {
  const [size, setSize] = useState(readViewport);
  useEffect(() => {
    const onResize = () => setSize(readViewport());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
};

const NavLinkItem = ({
  item,
  active,
  expanded,
  onNavigate,
}: {
  item: NavItem;
  active: boolean;
  expanded: boolean;
  onNavigate?: () => void;
}) => (
  <li>
    <Link
      to={item.path}
      onClick={onNavigate}
      aria-current={active ? 'page' : undefined}
      aria-label={expanded ? undefined : item.label}
      className={cn(
        'flex h-10 items-center gap-3 rounded-lg px-3 text-sm transition-colors',
        active ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-surface-2',
      )}
    >
      <span className="shrink-0">{ICONS[item.path]}</span>
      <span className={cn('truncate', expanded ? 'inline' : 'sr-only')}>{item.label}</span>
    </Link>
  </li>
);

const SidebarContent = ({
  expanded,
  mobile,
  onNavigate,
}: {
  expanded: boolean;
  mobile: boolean;
  onNavigate?: () => void;
}) => {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { currentSubaccount, selectSubaccount } = useSession();
  const [resourcesOpen, setResourcesOpen] = useState(!mobile);
  const all = [...WORKSPACE_MAIN_ITEMS, ...WORKSPACE_RESOURCE_ITEMS];
  const active = activeItemPath(pathname, all);
  return (
    <div className="flex h-full flex-col gap-4 p-3">
      <Link to="/" className="flex h-10 items-center gap-2 px-1 font-semibold" aria-label="Switchboard home">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span className={expanded ? 'inline' : 'sr-only'}>Switchboard</span>
      </Link>
      <AccountSwitcher
        compact={!expanded}
        currentId={currentSubaccount?.id ?? null}
        onSelect={(id) => {
          selectSubaccount(id);
          navigate(`/${id}/dashboard`);
          onNavigate?.();
        }}
      />
      <nav aria-label="Workspace" className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto">
        <ul className="space-y-1">
          {WORKSPACE_MAIN_ITEMS.map((item) => (
            <NavLinkItem
              key={item.path}
              item={item}
              active={active === item.path}
              expanded={expanded}
              onNavigate={onNavigate}
            />
          ))}
        </ul>
        <div>
          {mobile ? (
            <button
              type="button"
              className="flex w-full items-center justify-between px-3 py-1 text-xs font-semibold tracking-wide text-muted uppercase"
              aria-expanded={resourcesOpen}
              onClick={() => setResourcesOpen((open) => !open)}
            >
              Resources <ChevronDown size={14} className={cn(resourcesOpen && 'rotate-180')} aria-hidden="true" />
            </button>
          ) : (
            <h2
              className={cn(
                'px-3 py-1 text-xs font-semibold tracking-wide text-muted uppercase',
                !expanded && 'sr-only',
              )}
            >
              Resources
            </h2>
          )}
          {resourcesOpen ? (
            <ul className="mt-1 space-y-1">
              {WORKSPACE_RESOURCE_ITEMS.map((item) => (
                <NavLinkItem
                  key={item.path}
                  item={item}
                  active={active === item.path}
                  expanded={expanded}
                  onNavigate={onNavigate}
                />
              ))}
            </ul>
          ) : null}
        </div>
      </nav>
      <AccountMenu expanded={expanded} />
    </div>
  );
};

/**
 * The phone's bottom bar: the four main items one tap away on every workspace page (the header's
 * menu button is hidden on agents paths), and More opening the drawer with everything else.
 */
const MobileBar = ({ onMore, moreOpen }: { onMore: () => void; moreOpen: boolean }) => {
  const { pathname } = useLocation();
  const active = activeItemPath(pathname, [...WORKSPACE_MAIN_ITEMS, ...WORKSPACE_RESOURCE_ITEMS]);
  const cell = 'flex min-w-0 flex-1 flex-col items-center justify-center gap-0.5 text-[11px] font-medium';
  return (
    <nav
      aria-label="Quick navigation"
      className="fixed inset-x-0 bottom-0 z-30 flex h-16 border-t border-border bg-surface pb-[env(safe-area-inset-bottom)]"
    >
      {WORKSPACE_MAIN_ITEMS.map((item) => (
        <Link
          key={item.path}
          to={item.path}
          aria-current={active === item.path ? 'page' : undefined}
          className={cn(cell, active === item.path ? 'text-foreground' : 'text-muted')}
        >
          <span
            className={cn('rounded-full px-3 py-0.5', active === item.path && 'bg-primary text-primary-foreground')}
          >
            {ICONS[item.path]}
          </span>
          <span className="max-w-full truncate">{item.label}</span>
        </Link>
      ))}
      <button type="button" className={cn(cell, 'text-muted')} aria-expanded={moreOpen} onClick={onMore}>
        <span className="px-3 py-0.5">
          <Menu size={20} aria-hidden="true" />
        </span>
        More
      </button>
    </nav>
  );
};

/** The workspace: sidebar (70 px collapsed, 240 px on hover; 280 px drawer on mobile) and header. */
export const WorkspaceLayout = () => {
  const { user, loading, currentSubaccount } = useSession();
  const { subaccountId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { width, height } = useViewport();
  const mobile = width < 768;
  const short = isShortLayout(width, height);
  const [hovered, setHovered] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const header = usePageHeaderState();

  if (loading) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading workspace" />
      </div>
    );
  }
  if (!user) return <Navigate to={`/?signin=1&returnUrl=${encodeURIComponent(location.pathname)}`} replace />;
  // A client of the agency sees the client portal: the agency's brand and the portal's pages only.
  if (currentSubaccount?.role === 'client') return <PortalLayout subaccountId={currentSubaccount.id} />;

  const title = header.options.title ?? headerTitleFor(location.pathname);
  const showMenuButton = mobile && !isAgentsWorkspacePath(location.pathname);

  return (
    <ThemeScope subaccountId={subaccountId}>
      <PageHeaderProvider value={header.provider}>
        <div className="min-h-screen bg-background text-foreground">
          {mobile ? (
            <>
              {drawerOpen ? (
                <button
                  type="button"
                  aria-label="Close menu"
                  className="fixed inset-0 z-40 bg-black/50"
                  onClick={() => setDrawerOpen(false)}
                />
              ) : null}
              <aside
                aria-label="Sidebar"
                aria-hidden={!drawerOpen}
                inert={!drawerOpen}
                className={cn(
                  'fixed inset-y-0 left-0 z-50 w-[280px] border-r border-border bg-surface transition-transform',
                  drawerOpen ? 'translate-x-0' : '-translate-x-full',
                )}
              >
                <button
                  type="button"
                  aria-label="Close menu"
                  className="absolute top-4 right-3 rounded-md p-1 text-muted hover:bg-surface-2"
                  onClick={() => setDrawerOpen(false)}
                >
                  <X size={18} />
                </button>
                <SidebarContent expanded mobile onNavigate={() => setDrawerOpen(false)} />
              </aside>
            </>
          ) : (
            <aside
              aria-label="Sidebar"
              onMouseEnter={() => setHovered(true)}
              onMouseLeave={() => setHovered(false)}
              onFocus={() => setHovered(true)}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHovered(false);
              }}
              className={cn(
                'fixed inset-y-0 left-0 z-40 overflow-hidden border-r border-border bg-surface transition-[width] duration-200',
                hovered ? 'w-[240px] shadow-2xl' : 'w-[70px]',
              )}
            >
              <SidebarContent expanded={hovered} mobile={false} />
            </aside>
          )}
          <div className={cn('flex min-h-screen flex-col', !mobile && 'pl-[70px]')}>
            <header
              className={cn(
                'sticky top-0 z-30 flex items-center gap-3 border-b border-border bg-background/90 px-4 backdrop-blur',
                short ? 'h-14' : 'h-16',
              )}
            >
              {showMenuButton ? (
                <button
                  type="button"
                  aria-label="Open menu"
                  className="rounded-md p-2 hover:bg-surface-2"
                  onClick={() => setDrawerOpen(true)}
                >
                  <Menu size={20} />
                </button>
              ) : null}
              {header.options.back ? (
                <button
                  type="button"
                  aria-label="Back"
                  className="rounded-md p-2 hover:bg-surface-2"
                  onClick={() => navigate(header.options.back ?? '/')}
                >
                  <ChevronLeft size={20} />
                </button>
              ) : null}
              <h1 className={cn('truncate font-semibold', short ? 'text-base' : 'text-lg')}>{title}</h1>
              <div ref={header.slotRef} className="ml-auto flex items-center gap-2" />
            </header>
            <main className={cn('flex-1', short ? 'p-3 sm:p-4' : 'p-6', mobile && 'pb-20')}>
              <PageSuspense>
                <Outlet />
              </PageSuspense>
            </main>
          </div>
          {mobile ? <MobileBar onMore={() => setDrawerOpen(true)} moreOpen={drawerOpen} /> : null}
        </div>
      </PageHeaderProvider>
    </ThemeScope>
  );
};
