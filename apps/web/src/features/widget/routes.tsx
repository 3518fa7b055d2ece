import type { FeatureRoutes } from '../routing';
import { AddAgentPage } from './add-agent-page';
import { DesignerRoute } from './designer-page';
import { InboxRoute } from './inbox-page';

export const widgetRoutes: FeatureRoutes = {
  connection: [
    { path: 'website-widget', element: <DesignerRoute type="website-widget" /> },
    { path: 'website-block', element: <DesignerRoute type="website-block" /> },
    { path: 'add-agent', element: <AddAgentPage /> },
    { path: 'conversations', element: <InboxRoute /> },
  ],
};
