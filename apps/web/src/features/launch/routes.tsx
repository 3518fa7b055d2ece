import { type FeatureRoutes, lazyPage } from '../routing';

const LaunchPage = lazyPage(() => import('./launch-page'), 'LaunchPage');

export const launchRoutes: FeatureRoutes = {
  workspace: [{ path: '/connect', element: <LaunchPage /> }],
};
