import { type FeatureRoutes, lazyPage } from '../routing';
import { MarketplaceShell } from './marketplace-shell';

const MarketplacePage = lazyPage(() => import('./marketplace-page'), 'MarketplacePage');
const ProjectPage = lazyPage(() => import('./project-page'), 'ProjectPage');

export const marketplaceRoutes: FeatureRoutes = {
  public: [
    {
      path: '/marketplace',
      element: <MarketplaceShell />,
      children: [
        { index: true, element: <MarketplacePage /> },
        { path: ':projectId', element: <ProjectPage /> },
      ],
    },
  ],
};
