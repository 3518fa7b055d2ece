import { type FeatureRoutes, lazyPage } from '../routing';

const TeamInboxRoute = lazyPage(() => import('./team-inbox-page'), 'TeamInboxRoute');

export const inboxRoutes: FeatureRoutes = {
  connection: [{ path: 'inbox', element: <TeamInboxRoute /> }],
};
