import { type FeatureRoutes, lazyPage } from '../routing';

const MessagingRoute = lazyPage(() => import('./messaging-page'), 'MessagingRoute');
const InstagramRoute = lazyPage(() => import('./instagram-page'), 'InstagramRoute');

export const channelsRoutes: FeatureRoutes = {
  connection: [
    { path: 'sms/campaigns', element: <MessagingRoute type="sms" /> },
    { path: 'whatsapp/campaigns', element: <MessagingRoute type="whatsapp" /> },
    { path: 'link3', element: <InstagramRoute /> },
  ],
};
