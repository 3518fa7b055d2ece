import { type FeatureRoutes, lazyPage } from '../routing';

const ProfilePage = lazyPage(() => import('./profile-page'), 'ProfilePage');

export const rankRoutes: FeatureRoutes = {
  workspace: [{ path: '/profile', element: <ProfilePage /> }],
};
