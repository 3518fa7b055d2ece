import { RANK_REFETCH_MS, type TUserRank } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useSession } from '../session/session';

export const RANK_KEY = ['user-rank'] as const;

/**
 * The agency's rank, fetched only when signed in with a user id, and not again within 60 s
 * (spec/billing-accounts.md 4, Rank data): focus, remounts and reconnects within that time reuse it.
 */
export const useRank = () => {
  const { user, currentSubaccount } = useSession();
  return useQuery({
    queryKey: [...RANK_KEY, currentSubaccount?.id ?? null],
    queryFn: () => api<TUserRank>('/api/user/rank', { silent: true }),
    enabled: Boolean(user?.id && currentSubaccount),
    staleTime: RANK_REFETCH_MS,
    refetchOnWindowFocus: false,
    retry: false,
  });
};
