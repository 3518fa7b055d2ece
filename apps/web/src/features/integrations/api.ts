import type {
  TConnectIntegrationRequest,
  TConnectIntegrationResponse,
  TIntegrationAppsResponse,
  TIntegrationConnection,
  TIntegrationConnectionsResponse,
  TIntegrationStatusResponse,
  TSandboxRecordsResponse,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const key = (subaccountId: string | null, part: string) => ['integrations', subaccountId, part] as const;

export const useIntegrationApps = (subaccountId: string | null) =>
  useQuery({
    queryKey: key(subaccountId, 'apps'),
    queryFn: () => api<TIntegrationAppsResponse>('/api/integrations/apps'),
    enabled: Boolean(subaccountId),
    staleTime: 60_000,
  });

export const useIntegrationConnections = (subaccountId: string | null) =>
  useQuery({
    queryKey: key(subaccountId, 'connections'),
    queryFn: () => api<TIntegrationConnectionsResponse>('/api/integrations/connections'),
    enabled: Boolean(subaccountId),
  });

/** The status store: connection:{id}, trigger:{app_slug} and the integration map. */
export const useIntegrationStatus = (subaccountId: string | null) =>
  useQuery({
    queryKey: key(subaccountId, 'status'),
    queryFn: () => api<TIntegrationStatusResponse>('/api/integrations/status'),
    enabled: Boolean(subaccountId),
  });

export const useSandboxRecords = (subaccountId: string | null, enabled: boolean) =>
  useQuery({
    queryKey: key(subaccountId, 'sandbox-records'),
    queryFn: () => api<TSandboxRecordsResponse>('/api/integrations/sandbox/records'),
    enabled: Boolean(subaccountId) && enabled,
  });

export const useIntegrationMutations = () => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['integrations'] });
  return {
    connect: useMutation({
      mutationFn: (body: TConnectIntegrationRequest) =>
        api<TConnectIntegrationResponse>('/api/integrations/connections', { body, silent: true }),
      onSuccess: () => refresh(),
    }),
    disconnect: useMutation({
      mutationFn: (id: string) => api<void>(`/api/integrations/connections/${id}`, { method: 'DELETE' }),
      onSuccess: () => refresh(),
    }),
    rediscover: useMutation({
      mutationFn: (id: string) =>
        api<TIntegrationConnection>(`/api/integrations/connections/${id}/rediscover`, { method: 'POST' }),
      onSuccess: () => refresh(),
    }),
  };
};
