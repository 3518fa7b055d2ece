import {
  createStatusStore,
  LAUNCH_CHANNELS,
  type TChannelState,
  type TLaunchChannel,
  type TLaunchConnection,
  type TLaunchResponse,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';

/** The per-sub-account status store of the app (spec 4): loaded from each Launch answer. */
export const statusStore = createStatusStore();

const loadStore = (data: TLaunchResponse) => {
  for (const sub of data.subaccounts) statusStore.load(sub.subaccountId, sub.connections);
  return data;
};

/** A page of the caller's sub-accounts with their connection records (or one sub-account's). */
export const useLaunch = (options: { page?: number; subaccountId?: string } = {}) => {
  const params = new URLSearchParams({ page: String(options.page ?? 1) });
  if (options.subaccountId) params.set('subaccountId', options.subaccountId);
  return useQuery({
    queryKey: ['launch', options.subaccountId ?? 'all', options.page ?? 1],
    queryFn: async () => loadStore(await api<TLaunchResponse>(`/api/launch?${params}`, { silent: true })),
    enabled: options.subaccountId !== '',
  });
};

export interface ChannelSummary {
  channel: TLaunchChannel;
  /** The badge, from the status store. */
  state: TChannelState;
  connections: TLaunchConnection[];
}

/** The five channels of a sub-account with their badge state and their connections. */
export const useChannelSummaries = (subaccountId: string, connections: TLaunchConnection[]): ChannelSummary[] =>
  useMemo(
    () =>
      LAUNCH_CHANNELS.map((channel) => ({
        channel,
        state: statusStore.channelState(subaccountId, channel),
        connections: connections.filter((item) => item.type === channel),
      })),
    [subaccountId, connections],
  );

/** Pauses or resumes a connection, then refreshes Launch, the badges and the dashboards. */
export const usePauseConnection = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionId, pause }: { connectionId: string; pause: boolean }) =>
      api<TLaunchConnection>(`/api/launch/connections/${connectionId}/${pause ? 'pause' : 'resume'}`, {
        method: 'POST',
        silent: true,
      }),
    onSuccess: (record) => {
      toast.success(record.status === 'paused' ? `${record.name} is paused` : `${record.name} is active again`);
      void client.invalidateQueries({ queryKey: ['launch'] });
    },
    onError: (error: ApiError) => toast.error(error.message),
  });
};
