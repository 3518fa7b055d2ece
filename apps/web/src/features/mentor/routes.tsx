import { type FeatureRoutes, lazyPage } from '../routing';

const MentorPage = lazyPage(() => import('./mentor-page'), 'MentorPage');

export const mentorRoutes: FeatureRoutes = {
  workspace: [{ path: '/aimentor', element: <MentorPage /> }],
};
