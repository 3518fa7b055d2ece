import { type FeatureRoutes, lazyPage } from '../routing';

const AccountSettingsPage = lazyPage(() => import('./account-settings-page'), 'AccountSettingsPage');
const BuildPage = lazyPage(() => import('./build-page'), 'BuildPage');
const LegalPage = lazyPage(() => import('./legal-page'), 'LegalPage');

export const resourcesRoutes: FeatureRoutes = {
  public: [
    { path: '/terms', element: <LegalPage kind="terms" /> },
    { path: '/privacy-policy', element: <LegalPage kind="privacy" /> },
  ],
  workspace: [
    { path: '/build', element: <BuildPage /> },
    { path: '/settings', element: <AccountSettingsPage /> },
  ],
};
