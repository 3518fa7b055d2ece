import type { TConnection, TWidgetSettings } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';

export interface BuildItem {
  buildId: string;
  aiName: string;
  assistantId: string;
  name: string;
}

export const connectionKey = (id: string) => ['connection', id] as const;

/** GET /api/connections/{connectId}; failure toast 'Failed to load widget settings'. */
export const useConnection = (connectionId: string) =>
  useQuery({
    queryKey: connectionKey(connectionId),
    queryFn: async () => {
      try {
        return await api<TConnection>(`/api/connections/${encodeURIComponent(connectionId)}`, { silent: true });
      } catch (error) {
        if ((error as { status?: number }).status !== 404) toast.error('Failed to load widget settings');
        throw error;
      }
    },
    retry: false,
    enabled: connectionId.startsWith('con_'),
  });

export const useSubaccountConnections = (subaccountId: string, type: TConnection['type'], enabled: boolean) =>
  useQuery({
    queryKey: ['connections', subaccountId, type],
    queryFn: () =>
      api<{ connections: TConnection[] }>(`/api/subaccounts/${subaccountId}/connections?type=${type}`, {
        silent: true,
      }),
    enabled,
  });

/** GET /api/builds for the sub-account; failure toast 'Failed to load builds'. */
export const useBuilds = (subaccountId: string) =>
  useQuery({
    queryKey: ['builds', subaccountId],
    queryFn: async () => {
      try {
        return await api<{ builds: BuildItem[] }>('/api/builds?limit=100', {
          silent: true,
          headers: { 'x-subaccount-id': subaccountId },
        });
      } catch (error) {
        toast.error('Failed to load builds');
        throw error;
      }
    },
  });

export const useSaveSettings = (connectionId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: TWidgetSettings) =>
      api<TConnection>(`/api/connections/${connectionId}`, { method: 'PUT', body: { settings }, silent: true }),
    onSuccess: (data) => {
      client.setQueryData(connectionKey(connectionId), data);
      toast.success('Settings saved successfully!');
    },
    onError: () => toast.error('Failed to save settings'),
  });
};

export const useUpdateBuild = (connectionId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (buildId: string) =>
      api<TConnection>(`/api/connections/${connectionId}/update-build`, {
        method: 'PUT',
        body: { buildId },
        silent: true,
      }),
    onSuccess: (data) => {
      client.setQueryData(connectionKey(connectionId), data);
      toast.success('Build updated successfully!');
    },
    onError: () => toast.error('Failed to update build'),
  });
};

export const useDeploy = (connectionId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<TConnection>(`/api/connections/${connectionId}/deploy`, { method: 'POST', silent: true }),
    onSuccess: (data) => {
      client.setQueryData(connectionKey(connectionId), data);
      toast.success('Widget deployed successfully!');
    },
    onError: () => toast.error('Failed to deploy widget'),
  });
};

/** Deletes the widget; the lists that showed it (connections, Launch) are read again. */
export const useDeleteConnection = (connectionId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/api/connections/${connectionId}`, { method: 'DELETE', silent: true }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: connectionKey(connectionId) });
      await client.invalidateQueries({ queryKey: ['connections'] });
      await client.invalidateQueries({ queryKey: ['launch'] });
      toast.success('Widget deleted');
    },
    onError: () => toast.error('Failed to delete widget'),
  });
};
