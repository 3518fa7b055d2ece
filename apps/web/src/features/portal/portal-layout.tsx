import type { TPortalContext } from '@switchboard/core';
import { LogOut, Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { PageSuspense } from '../routing';
import { useSession } from '../session/session';
import { ThemeScope } from '../theme/theme';
import { usePortalContext } from './api';
import { BrandMark, brandStyle, PoweredBy, useBrandedDocument } from './brand';
import { isPortalPath, portalNavItems } from './portal-nav';

/** The client's own menu: who is signed in, and sign out. No agency entries. */
const PortalAccountMenu = () => {
  const { user, signOut } = useSession();
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="hidden max-w-[14rem] truncate text-muted sm:inline">{user?.email}</span>
      <button
        type="button"
        onClick={() => void signOut()}
        className="flex items-center gap-1 rounded-md px-2 py-1.5 hover:bg-surface-2"
      >
        <LogOut size={16} aria-hidden="true" /> Sign out
      </button>
    </div>
  );
};

const PortalNav = ({ context, onNavigate }: { context: TPortalContext; onNavigate?: () => void }) => {
  const { pathname } = useLocation();
  const items = portalNavItems(context.subaccountId, context.access);
  return (
    <ul className="flex flex-col gap-1 md:flex-row md:items-center">
      {items.map((item) => {
        const active = pathname === item.path || pathname.startsWith(`${item.path}/`);
        return (
          <li key={item.path}>
            <Link
              to={item.path}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              className={cn(
                'block rounded-lg px-3 py-2 text-sm',
                active ? 'bg-primary text-primary-foreground' : 'text-foreground hover:bg-surface-2',
              )}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
};

/**
 * The client portal: the agency's brand instead of the platform's, the portal's entries only (no
 * sub-account switcher, no agency billing, settings, team, marketplace, affiliate or operator),
 * and "Page not found" for any other page of the app.
 */
export const PortalLayout = ({ subaccountId, outletContext }: { subaccountId: string; outletContext?: unknown }) => {
  const { pathname } = useLocation();
  const portal = usePortalContext(subaccountId);
  const [menuOpen, setMenuOpen] = useState(false);
  useBrandedDocument(portal.data?.branding);
  if (portal.isLoading || !portal.data) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading portal" />
      </div>
    );
  }
  const context = portal.data;
  if (pathname === `/${subaccountId}` || pathname === `/${subaccountId}/dashboard`) {
    return <Navigate to="/agents" replace />;
  }
  const allowed = isPortalPath(pathname, subaccountId, context.access);
  return (
    <ThemeScope subaccountId={subaccountId}>
      <div className="flex min-h-screen flex-col bg-background text-foreground" style={brandStyle(context.branding)}>
        <header className="sticky top-0 z-30 border-b border-border bg-surface">
          <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-3 md:px-6">
            <Link to="/agents" aria-label={`${context.branding.name} home`}>
              <BrandMark branding={context.branding} />
            </Link>
            <nav aria-label="Portal" className="ml-4 hidden md:block">
              <PortalNav context={context} />
            </nav>
            <div className="ml-auto hidden md:block">
              <PortalAccountMenu />
            </div>
            <button
              type="button"
              className="ml-auto rounded-md p-2 hover:bg-surface-2 md:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X size={20} /> : <Menu size={20} />}
            </button>
          </div>
          {menuOpen ? (
            <nav aria-label="Portal" className="space-y-3 border-t border-border p-3 md:hidden">
              <PortalNav context={context} onNavigate={() => setMenuOpen(false)} />
              <PortalAccountMenu />
            </nav>
          ) : null}
        </header>
        <main className="mx-auto w-full max-w-7xl flex-1 p-3 md:p-6">
          {allowed ? (
            <PageSuspense>
              <Outlet context={outletContext} />
            </PageSuspense>
          ) : (
            <div className="flex flex-col items-center gap-3 py-16 text-center">
              <h1 className="text-2xl font-semibold">Page not found</h1>
              <p className="text-muted">The page you are looking for does not exist.</p>
              <Link to="/agents" className="underline decoration-primary decoration-2">
                Go to your agents
              </Link>
            </div>
          )}
        </main>
        <footer className="pb-4">
          <PoweredBy branding={context.branding} />
        </footer>
      </div>
    </ThemeScope>
  );
};
