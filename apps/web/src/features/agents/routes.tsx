import type { FeatureRoutes } from '../routing';
import { AgentPage } from './agent-page';
import { ApiKeysPage } from './api-keys-page';
import { CreateAgentPage } from './create-page';
import { AgentListPage } from './list-page';

export const agentsRoutes: FeatureRoutes = {
  workspace: [
    { path: '/agents/create', element: <CreateAgentPage /> },
    { path: '/agents', element: <AgentListPage /> },
    { path: '/agents/:agentId', element: <AgentPage /> },
    { path: '/subaccounts/:subaccountId/agents', element: <AgentListPage /> },
    { path: '/apitester', element: <ApiKeysPage /> },
  ],
};
