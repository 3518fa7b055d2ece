import type { TPlanCatalog, TUsageResponse } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../lib/api';
import { useSession } from '../session/session';

/** Error text: the response's error, then message, then the exception, else 'Something went wrong'. */
export const errorText = (error: unknown, fallback = 'Something went wrong'): string => {
  if (error instanceof ApiError || error instanceof Error) return error.message || fallback;
  if (error && typeof error === 'object') {
    const value = error as { error?: unknown; message?: unknown };
    if (typeof value.error === 'string') return value.error;
    if (typeof value.message === 'string') return value.message;
  }
  return fallback;
};

export const planCatalogKey = ['billing', 'plans'] as const;
export const usageKey = ['billing', 'usage'] as const;

/** The server plan catalog, cached 60 s. */
export const usePlanCatalog = () =>
  useQuery({
    queryKey: planCatalogKey,
    staleTime: 60_000,
    queryFn: async () => {
      const response = await fetch('/api/openrouter/plans', { cache: 'no-store', credentials: 'include' });
      if (!response.ok) throw new Error(`Failed to fetch plan catalog: ${response.status}`);
      return (await response.json()) as {
        plans: TPlanCatalog;
        salesUrl: string;
        payments?: 'stripe' | 'sandbox' | 'none';
      };
    },
  });

const BACKOFF = [15_000, 30_000, 60_000, 120_000, 300_000];
const POLL_MS = 60_000;

/**
 * The usage poller of spec billing-accounts 4: every 60 s, backing off 15/30/60/120/300 s after
 * failures, a refetch 2 s after the tab becomes visible, never two fetches at once, and a fetch is
 * skipped when the last one was under 60 s ago unless forced.
 */
export const useUsagePoller = () => {
  const { user, currentSubaccount } = useSession();
  const queryClient = useQueryClient();
  const [data, setData] = useState<TUsageResponse | null>(() => queryClient.getQueryData(usageKey) ?? null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(!data);
  const inFlight = useRef(false);
  const lastFetch = useRef(0);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const subaccountId = currentSubaccount?.id;
  const fetchUsage = useCallback(
    async (force = false) => {
      // Usage belongs to the account of the current sub-account.
      if (!user || !subaccountId || inFlight.current) return;
      if (!force && Date.now() - lastFetch.current < POLL_MS) return;
      inFlight.current = true;
      try {
        const usage = await api<TUsageResponse>('/api/openrouter/usage', { silent: true });
        lastFetch.current = Date.now();
        failures.current = 0;
        setData(usage);
        setError(usage.error);
        queryClient.setQueryData(usageKey, usage);
        void queryClient.invalidateQueries({ queryKey: ['usage', 'summary'] });
      } catch (thrown) {
        failures.current += 1;
        setError(errorText(thrown, 'Failed to fetch usage'));
      } finally {
        inFlight.current = false;
        setLoading(false);
      }
    },
    [user, subaccountId, queryClient],
  );

  useEffect(() => {
    if (!user) return;
    let cancelled = false;
    const schedule = () => {
      const delay =
        failures.current > 0 ? (BACKOFF[Math.min(failures.current - 1, BACKOFF.length - 1)] ?? POLL_MS) : POLL_MS;
      timer.current = setTimeout(async () => {
        await fetchUsage(true);
        if (!cancelled) schedule();
      }, delay);
    };
    void fetchUsage(true).then(() => {
      if (!cancelled) schedule();
    });
    let visibleTimer: ReturnType<typeof setTimeout> | null = null;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      if (visibleTimer) clearTimeout(visibleTimer);
      visibleTimer = setTimeout(() => void fetchUsage(true), 2_000);
    };
    document.addEventListener('visibilitychange', onVisible);
    const onChanged = () => void fetchUsage(true);
    window.addEventListener(BILLING_CHANGED_EVENT, onChanged);
    return () => {
      window.removeEventListener(BILLING_CHANGED_EVENT, onChanged);
      cancelled = true;
      if (timer.current) clearTimeout(timer.current);
      if (visibleTimer) clearTimeout(visibleTimer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [user, fetchUsage]);

  return { data, error, loading, refetch: () => fetchUsage(true) };
};

/** What the current plan allows (demo tiers, features), from the usage of the current account. */
export const usePlanCapabilities = () => {
  const { user, currentSubaccount } = useSession();
  const usage = useQuery({
    queryKey: ['usage', 'capabilities', currentSubaccount?.id],
    enabled: Boolean(user && currentSubaccount),
    staleTime: 60_000,
    queryFn: () => api<TUsageResponse>('/api/openrouter/usage', { silent: true }),
  });
  return usage.data?.capabilities ?? null;
};

/**
 * What the caller may do with the billing of an agency (by default the current sub-account's), as
 * the server says (canManageBilling in the accounts list): its owner or an admin of all its
 * sub-accounts manages the plan, invoices, card and credits; anyone else sees their own
 * sub-accounts' usage only.
 */
export const useBillingAccess = (accountId?: string) => {
  const { accounts, currentSubaccount } = useSession();
  const wanted = accountId ?? currentSubaccount?.accountId;
  const account = accounts.find((item) => item.id === wanted) ?? null;
  return { account, canManageBilling: account?.canManageBilling ?? false };
};

/** Refreshes the plan catalog and usage after a plan action. */
export const useBillingRefresh = () => {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: planCatalogKey }),
      queryClient.invalidateQueries({ queryKey: usageKey }),
      queryClient.invalidateQueries({ queryKey: ['usage', 'summary'] }),
      queryClient.invalidateQueries({ queryKey: ['billing', 'subscription'] }),
    ]);
    window.dispatchEvent(new CustomEvent(BILLING_CHANGED_EVENT));
  }, [queryClient]);
};

export const BILLING_CHANGED_EVENT = 'billing:changed';

/** hasAccess for the Dashboard shortcut: cached per session, a failed check counts as no access. */
export const useHasAccess = () => {
  const { user } = useSession();
  const query = useQuery({
    queryKey: ['billing', 'access', user?.id],
    enabled: Boolean(user),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    queryFn: async () => {
      try {
        const result = await api<{ hasAccess: boolean }>(
          `/auth/check-access?userId=${encodeURIComponent(user?.id ?? '')}`,
          {
            silent: true,
          },
        );
        return result.hasAccess;
      } catch {
        return false;
      }
    },
  });
  return Boolean(user) && query.data === true;
};
