import type { TClientCheckoutResponse, TClientPlanView } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';

const base = (subaccountId: string) => `/api/subaccounts/${encodeURIComponent(subaccountId)}/client-plan`;

export const clientPlanKey = (subaccountId: string) => ['client-plan', subaccountId];

export const useClientPlan = (subaccountId: string | undefined) =>
  useQuery({
    queryKey: clientPlanKey(subaccountId ?? ''),
    queryFn: () => api<TClientPlanView>(base(subaccountId as string), { silent: true }),
    enabled: Boolean(subaccountId),
  });

/** Chooses a plan: opens the checkout, or (already subscribed) moves the subscription to it. */
export const useChoosePlan = (subaccountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: string) =>
      api<TClientCheckoutResponse>(`${base(subaccountId)}/checkout`, { method: 'POST', body: { planId } }),
    onSuccess: (answer) => {
      if (answer.url) {
        window.location.assign(answer.url);
        return;
      }
      toast.success('Plan changed');
      void queryClient.invalidateQueries({ queryKey: clientPlanKey(subaccountId) });
    },
  });
};

export const useCancelPlan = (subaccountId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<TClientPlanView>(`${base(subaccountId)}/cancel`, { method: 'POST' }),
    onSuccess: (view) => {
      queryClient.setQueryData(clientPlanKey(subaccountId), view);
      toast.success('Your plan ends at the end of this period');
    },
  });
};
