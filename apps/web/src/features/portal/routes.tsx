import { type FeatureRoutes, lazyPage } from '../routing';

const AgencySignInPage = lazyPage(() => import('./agency-sign-in-page'), 'AgencySignInPage');

export const portalRoutes: FeatureRoutes = {
  public: [{ path: '/a/:agencySlug', element: <AgencySignInPage /> }],
};
