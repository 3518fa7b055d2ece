import {
  type TClientBillingStatus,
  ZPutClientBillingStripeRequest,
  ZPutClientBillingWebhookSecretRequest,
} from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { SandboxBadge } from './format';

export const clientBillingKey = (accountId: string) => ['client-billing', accountId];

const errorText = (thrown: unknown, fallback: string) => (thrown instanceof Error ? thrown.message : fallback);

/** The agency's own Stripe: connect with its secret key, add the webhook's signing secret, disconnect. */
export const StripeConnect = ({ accountId, status }: { accountId: string; status: TClientBillingStatus }) => {
  const queryClient = useQueryClient();
  const keyId = useId();
  const secretId = useId();
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const base = `/api/accounts/${encodeURIComponent(accountId)}/client-billing`;
  const store = (next: TClientBillingStatus) => queryClient.setQueryData(clientBillingKey(accountId), next);
  const connect = useMutation({
    mutationFn: (body: { secretKey: string; webhookSecret?: string }) =>
      api<TClientBillingStatus>(`${base}/stripe`, { method: 'PUT', body, silent: true }),
    onSuccess: (next) => {
      setError(null);
      setSecretKey('');
      setWebhookSecret('');
      store(next);
      toast.success('Stripe connected');
    },
    onError: (thrown) => setError(errorText(thrown, 'Stripe could not be connected')),
  });
  const saveSecret = useMutation({
    mutationFn: (body: { webhookSecret: string }) =>
      api<TClientBillingStatus>(`${base}/stripe/webhook-secret`, { method: 'PUT', body, silent: true }),
    onSuccess: (next) => {
      setError(null);
      setWebhookSecret('');
      store(next);
      toast.success('Webhook secret saved');
    },
    onError: (thrown) => setError(errorText(thrown, 'The webhook secret could not be saved')),
  });
  const disconnect = useMutation({
    mutationFn: () => api(`${base}/stripe`, { method: 'DELETE' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: clientBillingKey(accountId) }),
  });
  const stripe = status.stripe;
  return (
    <section className="space-y-3" aria-labelledby={`${keyId}-title`}>
      <h3 id={`${keyId}-title`} className="font-semibold">
        Your Stripe account
      </h3>
      {stripe ? (
        <p className="text-sm">
          Connected: {stripe.mode === 'live' ? 'live' : 'test'} {stripe.kind} key ending in{' '}
          <span className="font-mono">{stripe.last4}</span>.{' '}
          {stripe.webhookSecretSet ? 'Webhook secret saved.' : 'Add the webhook signing secret below.'}
        </p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
          {status.sandbox ? (
            <>
              <SandboxBadge /> Until you connect Stripe, your clients check out in the sandbox: no real payments.
            </>
          ) : (
            'Connect Stripe so your clients can subscribe to your plans.'
          )}
        </p>
      )}
      <div className="space-y-1 text-sm">
        <p className="text-muted">
          In Stripe, add a webhook endpoint with this address for the events checkout.session.completed, invoice.paid,
          customer.subscription.updated and customer.subscription.deleted:
        </p>
        <code className="block break-all rounded-md bg-surface-2 px-2 py-1 font-mono text-xs">{status.webhookUrl}</code>
      </div>
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (stripe && !secretKey.trim()) {
            const parsed = ZPutClientBillingWebhookSecretRequest.safeParse({ webhookSecret });
            if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the secret');
            return saveSecret.mutate(parsed.data);
          }
          const parsed = ZPutClientBillingStripeRequest.safeParse({
            secretKey,
            ...(webhookSecret.trim() ? { webhookSecret } : {}),
          });
          if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the key');
          connect.mutate(parsed.data);
        }}
      >
        <div>
          <Label htmlFor={keyId}>{stripe ? 'Replace the secret key' : 'Secret key'}</Label>
          <Input
            id={keyId}
            type="password"
            value={secretKey}
            onChange={(event) => setSecretKey(event.target.value)}
            placeholder="sk_live_…"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${keyId}-error` : undefined}
          />
        </div>
        <div>
          <Label htmlFor={secretId}>Webhook signing secret</Label>
          <Input
            id={secretId}
            type="password"
            value={webhookSecret}
            onChange={(event) => setWebhookSecret(event.target.value)}
            placeholder="whsec_…"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <FieldError id={`${keyId}-error`}>{error}</FieldError>
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            disabled={connect.isPending || saveSecret.isPending || (!secretKey.trim() && !webhookSecret.trim())}
          >
            {connect.isPending ? 'Checking the key...' : stripe && !secretKey.trim() ? 'Save secret' : 'Connect Stripe'}
          </Button>
          {stripe ? (
            <Button variant="ghost" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
              Disconnect
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
};
