import type {
  TAgent,
  TCreateMcpServerRequest,
  TDiscoveredTool,
  TEnabledToolInput,
  TMcpServer,
  TMcpServerList,
  TUpdateMcpServerRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { agentKey } from '../agents/api';

export const mcpServersKey = (subaccountId: string | null) => ['mcp-servers', subaccountId] as const;

export const useMcpServers = (subaccountId: string | null) =>
  useQuery({
    queryKey: mcpServersKey(subaccountId),
    queryFn: () => api<TMcpServerList>('/api/mcp-servers'),
    enabled: Boolean(subaccountId),
  });

/** Add, edit, discover again and delete; each answer replaces the list entry. */
export const useMcpServerMutations = (subaccountId: string | null) => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: mcpServersKey(subaccountId) });
  return {
    create: useMutation({
      mutationFn: (body: TCreateMcpServerRequest) =>
        api<TMcpServer>('/api/mcp-servers', { method: 'POST', body, silent: true }),
      onSuccess: () => refresh(),
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TUpdateMcpServerRequest }) =>
        api<TMcpServer>(`/api/mcp-servers/${encodeURIComponent(id)}`, { method: 'PATCH', body, silent: true }),
      onSuccess: () => refresh(),
    }),
    rediscover: useMutation({
      mutationFn: (id: string) =>
        api<TMcpServer>(`/api/mcp-servers/${encodeURIComponent(id)}/rediscover`, { method: 'POST' }),
      onSuccess: () => refresh(),
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<void>(`/api/mcp-servers/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: () => refresh(),
    }),
  };
};

/** The enabled-tool record of a discovered MCP tool (a copy of its schema, as agents keep it). */
export const enabledToolOf = (serverId: string, tool: TDiscoveredTool): TEnabledToolInput => ({
  source: 'mcp',
  ownerId: serverId,
  slug: tool.slug,
  description: tool.schema.description.slice(0, 2000),
  inputSchema: {
    type: 'object',
    properties: tool.schema.properties as Record<string, Record<string, unknown>>,
    required: tool.schema.required,
  },
  version: tool.version,
});

/** Adds one tool to an agent's enabled tools, reading the agent first so its other tools are kept. */
export const useEnableOnAgent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ agentId, tool }: { agentId: string; tool: TEnabledToolInput }) => {
      const agent = await api<TAgent>(`/api/agents/${encodeURIComponent(agentId)}`, { silent: true });
      const others = agent.enabledTools.filter(
        (enabled) => !(enabled.ownerId === tool.ownerId && enabled.slug === tool.slug),
      );
      return api<TAgent>(`/api/agents/${encodeURIComponent(agentId)}`, {
        method: 'PATCH',
        body: { enabledTools: [...others, tool] },
        silent: true,
      });
    },
    onSuccess: (agent) => {
      queryClient.setQueryData(agentKey(agent.id), agent);
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
  });
};
