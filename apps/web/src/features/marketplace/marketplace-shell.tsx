import { Outlet } from 'react-router';
import { Spinner } from '../../components/ui/card';
import { PublicHeader } from '../marketing/public-header';
import { useSession } from '../session/session';
import { WorkspaceLayout } from '../workspace/workspace-layout';

/**
 * The marketplace lives in the workspace for signed-in users; a signed-out visitor sees it under
 * the public header, so the project wizard can be started before signing in.
 */
export const MarketplaceShell = () => {
  const { user, loading } = useSession();
  if (loading) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading" />
      </div>
    );
  }
  if (user) return <WorkspaceLayout />;
  return (
    <div className="min-h-screen bg-background text-foreground">
      <PublicHeader />
      <main className="p-4 sm:p-6">
        <h1 className="mx-auto mb-4 max-w-6xl text-2xl font-semibold">AI Marketplace</h1>
        <Outlet />
      </main>
    </div>
  );
};
