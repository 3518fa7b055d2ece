import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useSession } from '../session/session';

export interface CreditsSummary {
  remaining: number;
  total: number;
  usedPercent: number;
}

interface UsageBalance {
  totalCreditLimit?: number;
  effectiveLimit?: number;
  usageUsed?: number;
  totalCreditsRemaining?: number;
  creditsRemaining?: number;
}

/** The account's credits for the account-menu card, from GET /api/openrouter/usage. */
export const useCredits = () => {
  const { user } = useSession();
  return useQuery({
    queryKey: ['usage', 'summary'],
    enabled: Boolean(user),
    retry: false,
    staleTime: 60_000,
    queryFn: async (): Promise<CreditsSummary> => {
      const usage = await api<{ balance?: UsageBalance }>('/api/openrouter/usage', { silent: true });
      const balance = usage.balance ?? {};
      const total = balance.totalCreditLimit ?? balance.effectiveLimit ?? 0;
      const used = balance.usageUsed ?? 0;
      const remaining = balance.totalCreditsRemaining ?? balance.creditsRemaining ?? Math.max(0, total - used);
      return { remaining, total, usedPercent: total > 0 ? Math.min(100, (used / total) * 100) : 0 };
    },
  });
};

/** Credits show up to 1 decimal. */
export const formatCredits = (value: number) =>
  value.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 0 });
