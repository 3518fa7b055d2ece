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

/**
 * The account's credits for the account-menu card, from GET /api/openrouter/usage; null for a
 * client's login, to whom the server gives no balance (the agency's credits are not theirs to see).
 */
export const useCredits = () => {
  const { user } = useSession();
  return useQuery({
    queryKey: ['usage', 'summary'],
    enabled: Boolean(user),
    retry: false,
    staleTime: 60_000,
    queryFn: async (): Promise<CreditsSummary | null> => {
      const usage = await api<{ balance?: UsageBalance | null }>('/api/openrouter/usage', { silent: true });
      if (!usage.balance) return null;
      const balance = usage.balance;
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
