import { type FeatureRoutes, lazyPage } from '../routing';

const AffiliatePage = lazyPage(() => import('./affiliate-page'), 'AffiliatePage');

export const affiliateRoutes: FeatureRoutes = {
  workspace: [{ path: '/affiliate', element: <AffiliatePage /> }],
};
