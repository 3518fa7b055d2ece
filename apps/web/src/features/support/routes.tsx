import { type FeatureRoutes, lazyPage } from '../routing';

const SupportPage = lazyPage(() => import('./support-page'), 'SupportPage');
const VideoGuidesPage = lazyPage(() => import('./video-guides-page'), 'VideoGuidesPage');

export const supportRoutes: FeatureRoutes = {
  workspace: [
    { path: '/support', element: <SupportPage /> },
    { path: '/howitworks', element: <VideoGuidesPage /> },
  ],
};
