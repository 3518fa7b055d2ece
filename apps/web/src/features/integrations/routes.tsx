import { type FeatureRoutes, lazyPage } from '../routing';

const IntegrationsPage = lazyPage(() => import('./integrations-page'), 'IntegrationsPage');

export const integrationsRoutes: FeatureRoutes = {
  workspace: [{ path: '/integrations', element: <IntegrationsPage /> }],
};
