import { type FeatureRoutes, lazyPage } from '../routing';

const McpServersPage = lazyPage(() => import('./mcp-servers-page'), 'McpServersPage');

export const mcpRoutes: FeatureRoutes = {
  workspace: [{ path: '/integrations/mcp', element: <McpServersPage /> }],
};
