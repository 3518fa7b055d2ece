import type { TBillingOverview } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../lib/api';
import { useSession } from '../session/session';
import { useBillingAccess, useBillingRefresh } from './billing-api';

export const billingOverviewKey = ['billing', 'overview'] as const;

/** GET /api/billing/overview for the account of the current sub-account (its manager's only). */
export const useBillingOverview = () => {
  const { user, currentSubaccount } = useSession();
  const { canManageBilling } = useBillingAccess();
  return useQuery({
    queryKey: [...billingOverviewKey, currentSubaccount?.id],
    enabled: Boolean(user && currentSubaccount && canManageBilling),
    retry: false,
    queryFn: () => api<TBillingOverview>('/api/billing/overview', { silent: true }),
  });
};

/** Refreshes the overview with the usage and plan data after a billing action. */
export const useOverviewRefresh = () => {
  const queryClient = useQueryClient();
  const refresh = useBillingRefresh();
  return useCallback(async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: billingOverviewKey }), refresh()]);
  }, [queryClient, refresh]);
};

/** An exact date, as the confirmation states it: 'December 24, 2026'. */
export const longDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : '';

export const SANDBOX_BILLING_NOTICE =
  'Sandbox payments: this server takes no real payments. Cards, invoices and charges here are test records.';
