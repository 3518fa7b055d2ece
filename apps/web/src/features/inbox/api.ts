import type {
  TCannedReplyList,
  TInboxAssigneeList,
  TInboxLabelList,
  TTeamInboxQuery,
  TTeamInboxThreadList,
} from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api';

export const inboxBase = (subaccountId: string) => `/api/subaccounts/${subaccountId}/inbox`;

export const useLabels = (subaccountId: string | null | undefined) =>
  useQuery({
    queryKey: ['inbox-labels', subaccountId],
    queryFn: () => api<TInboxLabelList>(`${inboxBase(subaccountId ?? '')}/labels`),
    enabled: Boolean(subaccountId),
  });

export const useCannedReplies = (subaccountId: string | null | undefined) =>
  useQuery({
    queryKey: ['canned-replies', subaccountId],
    queryFn: () => api<TCannedReplyList>(`${inboxBase(subaccountId ?? '')}/canned-replies`, { silent: true }),
    enabled: Boolean(subaccountId),
    staleTime: 30_000,
  });

export const useAssignees = (subaccountId: string) =>
  useQuery({
    queryKey: ['inbox-assignees', subaccountId],
    queryFn: () => api<TInboxAssigneeList>(`${inboxBase(subaccountId)}/assignees`),
  });

export type TeamInboxFilters = Pick<TTeamInboxQuery, 'channel' | 'label' | 'assignee'>;

/** The query string of the filters (the ones set). */
export const filterQuery = (filters: TeamInboxFilters, limit: number) => {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const key of ['channel', 'label', 'assignee'] as const) if (filters[key]) params.set(key, String(filters[key]));
  return params.toString();
};

export const useTeamThreads = (subaccountId: string, filters: TeamInboxFilters, limit: number) =>
  useQuery({
    queryKey: ['team-inbox', subaccountId, filters, limit],
    queryFn: () => api<TTeamInboxThreadList>(`${inboxBase(subaccountId)}/threads?${filterQuery(filters, limit)}`),
    placeholderData: (previous) => previous,
  });

/** Live: every change of the sub-account's conversations, labels or canned replies refreshes what shows it. */
export const useInboxEvents = (subaccountId: string) => {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource(`${inboxBase(subaccountId)}/events`);
    source.addEventListener('thread', (event) => {
      const change = JSON.parse((event as MessageEvent).data) as { threadId?: string; kind?: string };
      if (change.kind === 'canned-replies') {
        void client.invalidateQueries({ queryKey: ['canned-replies', subaccountId] });
        return;
      }
      if (change.kind === 'labels' && !change.threadId)
        void client.invalidateQueries({ queryKey: ['inbox-labels', subaccountId] });
      void client.invalidateQueries({ queryKey: ['team-inbox', subaccountId] });
      void client.invalidateQueries({ queryKey: ['contact-profile', subaccountId] });
      if (change.threadId)
        void client.invalidateQueries({
          queryKey: ['transcript'],
          predicate: (query) => query.queryKey[2] === change.threadId,
        });
    });
    return () => source.close();
  }, [client, subaccountId]);
};
