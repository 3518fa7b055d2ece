import type {
  TCreateWebhookEndpointRequest,
  TUpdateWebhookEndpointRequest,
  TWebhookDelivery,
  TWebhookEndpoint,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const baseOf = (connectId: string) => `/api/connect/${encodeURIComponent(connectId)}/webhooks`;

/** The endpoints of a sub-account and what can be done to them. */
export const useWebhookEndpoints = (connectId: string) => {
  const queryClient = useQueryClient();
  const key = ['webhooks', connectId];
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const list = useQuery({
    queryKey: key,
    queryFn: () => api<{ endpoints: TWebhookEndpoint[] }>(baseOf(connectId)),
  });
  const create = useMutation({
    mutationFn: (body: TCreateWebhookEndpointRequest) =>
      api<TWebhookEndpoint>(baseOf(connectId), { method: 'POST', body, silent: true }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUpdateWebhookEndpointRequest }) =>
      api<TWebhookEndpoint>(`${baseOf(connectId)}/${id}`, { method: 'PATCH', body }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`${baseOf(connectId)}/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return { list, create, update, remove };
};

/** An endpoint's delivery log, refreshed while a delivery is on its way; with test and resend. */
export const useDeliveries = (connectId: string, endpointId: string, open: boolean) => {
  const queryClient = useQueryClient();
  const key = ['webhook-deliveries', connectId, endpointId];
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['webhooks', connectId] });
  };
  const log = useQuery({
    queryKey: key,
    enabled: open,
    queryFn: () => api<{ deliveries: TWebhookDelivery[] }>(`${baseOf(connectId)}/${endpointId}/deliveries`),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 1500 : false,
  });
  const sendTest = useMutation({
    mutationFn: () => api<TWebhookDelivery>(`${baseOf(connectId)}/${endpointId}/test`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      api<TWebhookDelivery>(`${baseOf(connectId)}/${endpointId}/deliveries/${deliveryId}/resend`, { method: 'POST' }),
    onSuccess: refresh,
  });
  return { log, sendTest, resend };
};

export const fetchSecret = (connectId: string, endpointId: string) =>
  api<{ secret: string }>(`${baseOf(connectId)}/${endpointId}/secret`);
