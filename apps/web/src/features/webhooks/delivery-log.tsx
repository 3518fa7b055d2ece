import type { TWebhookDelivery } from '@switchboard/core';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';
import { toast } from '../../lib/toast';
import { useDeliveries } from './api';

const STATUS_TEXT: Record<TWebhookDelivery['status'], string> = {
  pending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

const DeliveryRow = ({
  delivery,
  onResend,
  busy,
}: {
  delivery: TWebhookDelivery;
  onResend: () => void;
  busy: boolean;
}) => (
  <li className="space-y-1 border-t border-border py-2 first:border-t-0">
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span>
        <code>{delivery.type}</code> ·{' '}
        <span
          className={
            delivery.status === 'failed'
              ? 'text-danger'
              : delivery.status === 'succeeded'
                ? 'font-medium text-foreground'
                : ''
          }
        >
          {STATUS_TEXT[delivery.status]}
        </span>
        {delivery.responseStatus ? ` · HTTP ${delivery.responseStatus}` : ''} · {delivery.attempts}{' '}
        {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        {delivery.durationMs !== null ? ` · ${delivery.durationMs} ms` : ''}
      </span>
      <span className="text-xs text-muted">{new Date(delivery.createdAt).toLocaleString('en-US')}</span>
    </div>
    {delivery.error ? <p className="text-xs text-danger">{delivery.error}</p> : null}
    {delivery.status === 'pending' && delivery.nextAttemptAt ? (
      <p className="text-xs text-muted">
        Next attempt around {new Date(delivery.nextAttemptAt).toLocaleTimeString('en-US')}
      </p>
    ) : null}
    <details className="text-xs">
      <summary className="cursor-pointer text-muted">Request and answer</summary>
      <pre className="mt-1 rounded bg-surface-2 p-2 whitespace-pre-wrap break-all">
        {JSON.stringify(delivery.payload, null, 2)}
      </pre>
      {delivery.responseBody ? (
        <pre className="mt-1 rounded bg-surface-2 p-2 whitespace-pre-wrap break-all">{delivery.responseBody}</pre>
      ) : null}
    </details>
    {delivery.status === 'pending' ? null : (
      <Button size="sm" variant="secondary" disabled={busy} onClick={onResend} aria-label={`Resend ${delivery.type}`}>
        Resend
      </Button>
    )}
  </li>
);

/** The latest deliveries of an endpoint, with "Send test event" and a resend button for each. */
export const DeliveryLog = ({ connectId, endpointId }: { connectId: string; endpointId: string }) => {
  const { log, sendTest, resend } = useDeliveries(connectId, endpointId, true);
  const deliveries = log.data?.deliveries ?? [];
  return (
    <section className="space-y-2 rounded-lg border border-border p-3" aria-label="Deliveries">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Deliveries</h3>
        <Button
          size="sm"
          disabled={sendTest.isPending}
          onClick={() => sendTest.mutate(undefined, { onSuccess: () => toast.success('Test event sent') })}
        >
          Send test event
        </Button>
      </div>
      {log.isLoading ? <Spinner label="Loading deliveries" /> : null}
      {log.isSuccess && deliveries.length === 0 ? <p className="text-sm text-muted">No deliveries yet.</p> : null}
      <ul>
        {deliveries.map((delivery) => (
          <DeliveryRow
            key={delivery.id}
            delivery={delivery}
            busy={resend.isPending}
            onResend={() => resend.mutate(delivery.id, { onSuccess: () => toast.success('Event sent again') })}
          />
        ))}
      </ul>
    </section>
  );
};
