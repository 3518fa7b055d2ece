import type { TChannelConnectionList, TChannelType } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';

export const CHANNEL_NAMES: Record<TChannelType, string> = {
  sms: 'SMS Agent',
  whatsapp: 'WhatsApp Agent',
  instagram: 'Instagram Agent',
};

/** The sub-account's SMS, WhatsApp or Instagram connections. */
export const useChannels = (subaccountId: string, type: TChannelType) =>
  useQuery({
    queryKey: ['channels', subaccountId, type],
    queryFn: () =>
      api<TChannelConnectionList>(`/api/subaccounts/${subaccountId}/channels?type=${type}`, {
        silent: true,
      }),
    enabled: Boolean(subaccountId),
  });

/**
 * Live: every message of the connection that arrives or changes state, and every campaign batch,
 * refreshes what shows it (the sandbox phone, the figures, the chart).
 */
export const useChannelEvents = (connectionId: string | null) => {
  const client = useQueryClient();
  useEffect(() => {
    if (!connectionId) return;
    const source = new EventSource(`/api/channels/${connectionId}/events`);
    let timer: ReturnType<typeof setTimeout> | null = null;
    // Batches of a campaign come fast: refresh at most a few times a second.
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void client.invalidateQueries({ queryKey: ['channel', connectionId] });
      }, 250);
    };
    source.addEventListener('message', refresh);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [client, connectionId]);
};
