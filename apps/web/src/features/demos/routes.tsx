import { type FeatureRoutes, lazyPage } from '../routing';

const DemoPage = lazyPage(() => import('./demo-page'), 'DemoPage');
const DemoPreviewPage = lazyPage(() => import('./shared-page'), 'DemoPreviewPage');
const SharedDemoPage = lazyPage(() => import('./shared-page'), 'SharedDemoPage');

export const demosRoutes: FeatureRoutes = {
  workspace: [{ path: '/demo', element: <DemoPage /> }],
  public: [
    { path: '/shared/:demoId', element: <SharedDemoPage /> },
    { path: '/demo/:demoId/preview', element: <DemoPreviewPage /> },
  ],
};
