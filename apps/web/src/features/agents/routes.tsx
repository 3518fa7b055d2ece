import { type FeatureRoutes, lazyPage } from '../routing';

const AgentPage = lazyPage(() => import('./agent-page'), 'AgentPage');
const ApiKeysPage = lazyPage(() => import('./api-keys-page'), 'ApiKeysPage');
const CreateAgentPage = lazyPage(() => import('./create-page'), 'CreateAgentPage');
const AgentListPage = lazyPage(() => import('./list-page'), 'AgentListPage');

export const agentsRoutes: FeatureRoutes = {
  workspace: [
    { path: '/agents/create', element: <CreateAgentPage /> },
    { path: '/agents', element: <AgentListPage /> },
    { path: '/agents/:agentId', element: <AgentPage /> },
    { path: '/subaccounts/:subaccountId/agents', element: <AgentListPage /> },
    { path: '/apitester', element: <ApiKeysPage /> },
  ],
};
