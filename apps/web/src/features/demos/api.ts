import type {
  TCheckEmbeddableResponse,
  TCreateDemoRequest,
  TDemo,
  TDemoListResponse,
  TPublicDemo,
  TUpdateDemoRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const demosKey = (subaccountId: string | null) => ['demos', subaccountId] as const;

/** A build (agent) as GET /api/builds lists it; only the fields demos use. */
export interface BuildOption {
  buildId: string;
  name: string;
}

const toBuildOptions = (data: unknown): BuildOption[] => {
  const list = Array.isArray(data) ? data : ((data as { builds?: unknown[] } | null)?.builds ?? []);
  return list.flatMap((item) => {
    const row = item as { buildId?: string; id?: string; aiName?: string; name?: string };
    const buildId = row.buildId ?? row.id;
    return buildId ? [{ buildId, name: row.name ?? row.aiName ?? buildId }] : [];
  });
};

export const useBuilds = (subaccountId: string | null) =>
  useQuery({
    queryKey: ['builds', subaccountId],
    queryFn: async () => toBuildOptions(await api<unknown>('/api/builds', { silent: true })),
    enabled: Boolean(subaccountId),
  });

export const useDemos = (subaccountId: string | null) =>
  useQuery({
    queryKey: demosKey(subaccountId),
    queryFn: () => api<TDemoListResponse>('/api/demos?limit=100'),
    enabled: Boolean(subaccountId),
  });

export const useDemoMutations = (subaccountId: string | null) => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: demosKey(subaccountId) });
  return {
    create: useMutation({
      mutationFn: (body: TCreateDemoRequest) => api<TDemo>('/api/demos', { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ demoId, body }: { demoId: string; body: TUpdateDemoRequest }) =>
        api<TDemo>(`/api/demos/${demoId}`, { method: 'PATCH', body, silent: true }),
      onSuccess: refresh,
    }),
    reset: useMutation({
      mutationFn: (demoId: string) => api<TDemo>(`/api/demos/${demoId}/reset-count`, { method: 'POST', body: {} }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (demoId: string) => api<void>(`/api/demos/${demoId}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
};

/** The demo as anyone with the link sees it. */
export const usePublicDemo = (demoId: string | undefined) =>
  useQuery({
    queryKey: ['shared-demo', demoId],
    queryFn: () => api<TPublicDemo>(`/api/shared/demos/${demoId}`, { silent: true }),
    enabled: Boolean(demoId),
  });

/** The demo as its creator sees it (preview page). */
export const useOwnDemo = (demoId: string | undefined) =>
  useQuery({
    queryKey: ['demo', demoId],
    queryFn: () => api<TDemo>(`/api/demos/${demoId}`, { silent: true }),
    enabled: Boolean(demoId),
  });

export const checkEmbeddable = (url: string) =>
  api<TCheckEmbeddableResponse>('/api/check-embeddable', { method: 'POST', body: { url }, silent: true });
