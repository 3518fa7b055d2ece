import { type FeatureRoutes, lazyPage } from '../routing';

const AddAgentPage = lazyPage(() => import('./add-agent-page'), 'AddAgentPage');
const DesignerRoute = lazyPage(() => import('./designer-page'), 'DesignerRoute');
const InboxRoute = lazyPage(() => import('./inbox-page'), 'InboxRoute');

export const widgetRoutes: FeatureRoutes = {
  connection: [
    { path: 'website-widget', element: <DesignerRoute type="website-widget" /> },
    { path: 'website-block', element: <DesignerRoute type="website-block" /> },
    { path: 'add-agent', element: <AddAgentPage /> },
    { path: 'conversations', element: <InboxRoute /> },
  ],
};
