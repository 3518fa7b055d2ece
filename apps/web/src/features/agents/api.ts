import type {
  TAgent,
  TAgentJobResponse,
  TAgentListResponse,
  TAppToolGroupsResponse,
  TKnowledgeDocument,
  TKnowledgeSearch,
  TModelOption,
  TUpdateAgentRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const agentsKey = (subaccountId: string | null) => ['agents', subaccountId] as const;
export const agentKey = (agentId: string) => ['agent', agentId] as const;

export const useAgents = (subaccountId: string | null) =>
  useQuery({
    queryKey: agentsKey(subaccountId),
    queryFn: () =>
      api<TAgentListResponse>(`/api/subaccounts/${encodeURIComponent(subaccountId ?? '')}/agents?limit=100`),
    enabled: Boolean(subaccountId),
  });

export const useAgent = (agentId: string) =>
  useQuery({
    queryKey: agentKey(agentId),
    queryFn: () => api<TAgent>(`/api/agents/${encodeURIComponent(agentId)}`, { silent: true }),
    enabled: Boolean(agentId),
    retry: false,
  });

export const useModels = () =>
  useQuery({
    queryKey: ['models'],
    queryFn: () => api<{ models: TModelOption[] }>('/api/models'),
    staleTime: 60_000,
  });

export const useAgentMutations = () => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['agents'] });
  return {
    update: useMutation({
      mutationFn: ({ agentId, body }: { agentId: string; body: TUpdateAgentRequest }) =>
        api<TAgent>(`/api/agents/${agentId}`, { method: 'PATCH', body, silent: true }),
      onSuccess: (agent) => {
        queryClient.setQueryData(agentKey(agent.id), agent);
        void refresh();
      },
    }),
    duplicate: useMutation({
      mutationFn: (agentId: string) => api<TAgent>(`/api/agents/${agentId}/duplicate`, { method: 'POST' }),
      onSuccess: () => refresh(),
    }),
    remove: useMutation({
      mutationFn: (agentId: string) => api<void>(`/api/agents/${agentId}`, { method: 'DELETE' }),
      onSuccess: () => refresh(),
    }),
  };
};

export const documentsKey = (agentId: string) => ['agent-documents', agentId] as const;

export const useDocuments = (agentId: string) =>
  useQuery({
    queryKey: documentsKey(agentId),
    queryFn: () =>
      api<{ documents: TKnowledgeDocument[]; search: TKnowledgeSearch }>(`/api/agents/${agentId}/documents`),
    // While passages are being indexed for meaning search, the card follows the progress.
    refetchInterval: (query) => {
      const search = query.state.data?.search;
      return search?.mode === 'hybrid' && search.indexed < search.total ? 3_000 : false;
    },
  });

/** Uploads one file (multipart); failures carry the server's message. */
export const uploadDocument = async (agentId: string, file: File): Promise<TKnowledgeDocument> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(`/api/agents/${agentId}/documents`, {
    method: 'POST',
    body: form,
    credentials: 'include',
  });
  const text = await response.text();
  if (!response.ok) {
    let message = `Request failed with status ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // Keep the status message.
    }
    throw new Error(message);
  }
  return JSON.parse(text) as TKnowledgeDocument;
};

export const startBuild = (idea: string, choice?: { provider: string; model: string }) =>
  api<{ jobId: string }>('/api/agent/build', { method: 'POST', body: { idea, ...choice }, silent: true });

export const fetchJob = (jobId: string, signal?: AbortSignal) =>
  api<TAgentJobResponse>(`/api/agent/jobs/${encodeURIComponent(jobId)}`, {
    silent: true,
    signal,
    headers: { 'cache-control': 'no-store' },
  });

export const appToolsKey = (agentId: string) => ['app-tools', agentId] as const;

/** Every source's tool groups (app connections, MCP servers) the agent's sub-account offers. */
export const useAppTools = (agentId: string) =>
  useQuery({
    queryKey: appToolsKey(agentId),
    queryFn: () => api<TAppToolGroupsResponse>(`/api/agents/${encodeURIComponent(agentId)}/app-tools`),
  });
