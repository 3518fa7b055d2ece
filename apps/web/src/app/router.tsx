import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { AffiliateWatcher } from '../features/affiliate/affiliate-watcher';
import { affiliateRoutes } from '../features/affiliate/routes';
import { agentsRoutes } from '../features/agents/routes';
import { ConfirmSignInPage } from '../features/auth/confirm-page';
import { MailboxPage } from '../features/auth/mailbox-page';
import { SignInDialog } from '../features/auth/sign-in-dialog';
import { BillingWatchers } from '../features/billing/billing-watchers';
import { billingRoutes } from '../features/billing/routes';
import { channelsRoutes } from '../features/channels/routes';
import { clientPlansRoutes } from '../features/client-plans/routes';
import { ConnectionLayout } from '../features/connection/connection-layout';
import { ConnectionDashboardPage } from '../features/connection/dashboard-page';
import { demosRoutes } from '../features/demos/routes';
import { ErrorDialog } from '../features/errors/error-dialog';
import { evaluationRoutes } from '../features/evaluation/routes';
import { inboxRoutes } from '../features/inbox/routes';
import { integrationsRoutes } from '../features/integrations/routes';
import { launchRoutes } from '../features/launch/routes';
import { LandingPage } from '../features/marketing/landing-page';
import { marketplaceRoutes } from '../features/marketplace/routes';
import { mcpRoutes } from '../features/mcp/routes';
import { mentorRoutes } from '../features/mentor/routes';
import { operatorRoutes } from '../features/operator/routes';
import { HomeOrAgencySignIn } from '../features/portal/agency-sign-in-page';
import { portalRoutes } from '../features/portal/routes';
import { rankRoutes } from '../features/rank/routes';
import { resourcesRoutes } from '../features/resources/routes';
import { type FeatureRoutes, PageSuspense } from '../features/routing';
import { AiSettingsPage } from '../features/settings/ai-settings-page';
import { supportRoutes } from '../features/support/routes';
import { TeamPage } from '../features/team/team-page';
import { webhooksRoutes } from '../features/webhooks/routes';
import { widgetRoutes } from '../features/widget/routes';
import { WorkspaceLayout } from '../features/workspace/workspace-layout';
import { NotFoundPage } from './not-found-page';

const features: FeatureRoutes[] = [
  agentsRoutes,
  widgetRoutes,
  inboxRoutes,
  evaluationRoutes,
  billingRoutes,
  demosRoutes,
  channelsRoutes,
  launchRoutes,
  integrationsRoutes,
  resourcesRoutes,
  marketplaceRoutes,
  rankRoutes,
  supportRoutes,
  affiliateRoutes,
  mentorRoutes,
  webhooksRoutes,
  mcpRoutes,
  operatorRoutes,
  clientPlansRoutes,
  portalRoutes,
];

/** The root keeps the app-wide dialogs mounted beside every page. */
const Root = () => (
  <>
    <PageSuspense>
      <Outlet />
    </PageSuspense>
    <SignInDialog />
    <ErrorDialog />
    <BillingWatchers />
    <AffiliateWatcher />
  </>
);

const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      // On an agency's verified domain, `/` is its clients' sign-in page.
      { path: '/', element: <HomeOrAgencySignIn fallback={<LandingPage />} /> },
      { path: '/auth/confirm', element: <ConfirmSignInPage /> },
      { path: '/auth/signin', element: <Navigate to="/?signin=1" replace /> },
      { path: '/dev/mailbox', element: <MailboxPage /> },
      ...features.flatMap((feature) => feature.public ?? []),
      { element: <WorkspaceLayout />, children: features.flatMap((feature) => feature.workspace ?? []) },
      {
        path: '/:connectId',
        element: <ConnectionLayout />,
        children: [
          { index: true, element: <Navigate to="dashboard" replace /> },
          { path: 'dashboard', element: <ConnectionDashboardPage /> },
          { path: 'team', element: <TeamPage /> },
          { path: 'ai-settings', element: <AiSettingsPage /> },
          ...features.flatMap((feature) => feature.connection ?? []),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
