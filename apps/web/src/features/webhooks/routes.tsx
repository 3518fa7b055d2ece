import { type FeatureRoutes, lazyPage } from '../routing';

const WebhookEventsPage = lazyPage(() => import('./events-page'), 'WebhookEventsPage');

export const webhooksRoutes: FeatureRoutes = {
  public: [{ path: '/docs/webhooks', element: <WebhookEventsPage /> }],
};
