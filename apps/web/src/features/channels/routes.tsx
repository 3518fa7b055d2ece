import { FeaturePending } from '../pending/feature-pending';
import { type FeatureRoutes, lazyPage } from '../routing';

const MessagingRoute = lazyPage(() => import('./messaging-page'), 'MessagingRoute');

export const channelsRoutes: FeatureRoutes = {
  connection: [
    { path: 'sms/campaigns', element: <MessagingRoute type="sms" /> },
    { path: 'whatsapp/campaigns', element: <MessagingRoute type="whatsapp" /> },
    {
      path: 'link3',
      element: <FeaturePending title="Instagram Agent" description="Instagram messages answered by an agent." />,
    },
  ],
};
