import type { FeatureRoutes } from '../routing';
import { DemoPage } from './demo-page';
import { DemoPreviewPage, SharedDemoPage } from './shared-page';

export const demosRoutes: FeatureRoutes = {
  workspace: [{ path: '/demo', element: <DemoPage /> }],
  public: [
    { path: '/shared/:demoId', element: <SharedDemoPage /> },
    { path: '/demo/:demoId/preview', element: <DemoPreviewPage /> },
  ],
};
