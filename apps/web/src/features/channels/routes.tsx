import { FeaturePending } from '../pending/feature-pending';
import type { FeatureRoutes } from '../routing';

export const channelsRoutes: FeatureRoutes = {
  connection: [
    {
      path: 'sms/campaigns',
      element: <FeaturePending title="SMS Agent" description="SMS campaigns answered by an agent." />,
    },
    {
      path: 'whatsapp/campaigns',
      element: <FeaturePending title="WhatsApp Agent" description="WhatsApp conversations answered by an agent." />,
    },
    {
      path: 'link3',
      element: <FeaturePending title="Instagram Agent" description="Instagram messages answered by an agent." />,
    },
  ],
};
