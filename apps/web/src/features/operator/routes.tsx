import { type FeatureRoutes, lazyPage } from '../routing';

const OperatorPage = lazyPage(() => import('./operator-page'), 'OperatorPage');

export const operatorRoutes: FeatureRoutes = {
  workspace: [{ path: '/operator', element: <OperatorPage /> }],
};
