import type {
  TAgencyBranding,
  TClientAccess,
  TClientAccessResponse,
  TPatchAgencyBrandingRequest,
  TPortalBranding,
  TPortalContext,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api';

/**
 * The branding of a sign-in page: by slug (`/a/{slug}`), or with `slug` null the agency whose
 * verified domain this page is on. `null` data: no agency (unknown slug, the platform's own host).
 */
export const usePortalBranding = (slug: string | null) =>
  useQuery({
    queryKey: ['portal-branding', slug ?? ':host'],
    queryFn: async () => {
      try {
        const query = slug ? `?slug=${encodeURIComponent(slug)}` : '';
        return await api<TPortalBranding>(`/api/portal/branding${query}`, { silent: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
    staleTime: 5 * 60_000,
  });

/** The signed-in person in a sub-account: a client or not, what they may do, the agency's branding. */
export const usePortalContext = (subaccountId: string | null | undefined) =>
  useQuery({
    queryKey: ['portal-context', subaccountId],
    queryFn: () =>
      api<TPortalContext>('/api/portal/context', {
        silent: true,
        headers: { 'x-subaccount-id': subaccountId ?? '' },
      }),
    enabled: Boolean(subaccountId),
    staleTime: 60_000,
  });

export const clientAccessKey = (subaccountId: string) => ['client-access', subaccountId] as const;

export const useClientAccess = (subaccountId: string) =>
  useQuery({
    queryKey: clientAccessKey(subaccountId),
    queryFn: () => api<TClientAccessResponse>(`/api/subaccounts/${encodeURIComponent(subaccountId)}/client-access`),
  });

export const useSaveClientAccess = (subaccountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<TClientAccess>) =>
      api<TClientAccessResponse>(`/api/subaccounts/${encodeURIComponent(subaccountId)}/client-access`, {
        method: 'PATCH',
        body: patch,
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(clientAccessKey(subaccountId), data);
      void queryClient.invalidateQueries({ queryKey: ['portal-context'] });
    },
  });
};

export const agencyBrandingKey = (accountId: string) => ['agency-branding', accountId] as const;

export const useAgencyBranding = (accountId: string) =>
  useQuery({
    queryKey: agencyBrandingKey(accountId),
    queryFn: () => api<TAgencyBranding>(`/api/accounts/${encodeURIComponent(accountId)}/branding`),
  });

export const useSaveAgencyBranding = (accountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: TPatchAgencyBrandingRequest) =>
      api<TAgencyBranding>(`/api/accounts/${encodeURIComponent(accountId)}/branding`, {
        method: 'PATCH',
        body: patch,
        silent: true,
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(agencyBrandingKey(accountId), data);
      void queryClient.invalidateQueries({ queryKey: ['portal-branding'] });
      void queryClient.invalidateQueries({ queryKey: ['portal-context'] });
    },
  });
};
