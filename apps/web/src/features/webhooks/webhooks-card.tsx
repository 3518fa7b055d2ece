import { type TWebhookEndpoint, type TWebhookEventType, WEBHOOK_EVENTS } from '@switchboard/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useWebhookEndpoints } from './api';
import { DeliveryLog } from './delivery-log';
import { SecretReveal } from './secret-reveal';

const labelOf = (type: string) => WEBHOOK_EVENTS.find((event) => event.type === type)?.label ?? type;

const EventChoices = ({
  idPrefix,
  chosen,
  onChange,
}: {
  idPrefix: string;
  chosen: TWebhookEventType[];
  onChange: (next: TWebhookEventType[]) => void;
}) => (
  <fieldset>
    <legend className="mb-1 text-sm font-medium">Events</legend>
    <div className="grid gap-1 sm:grid-cols-2">
      {WEBHOOK_EVENTS.map((event) => {
        const type = event.type as TWebhookEventType;
        const id = `${idPrefix}-${type}`;
        return (
          <label key={type} htmlFor={id} className="flex items-start gap-2 text-sm">
            <input
              id={id}
              type="checkbox"
              className="mt-1"
              checked={chosen.includes(type)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, type] : chosen.filter((one) => one !== type))}
            />
            <span>
              {event.label} <code className="text-xs text-muted">{type}</code>
            </span>
          </label>
        );
      })}
    </div>
  </fieldset>
);

const AddEndpointForm = ({ connectId, onDone }: { connectId: string; onDone: () => void }) => {
  const { create } = useWebhookEndpoints(connectId);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<TWebhookEventType[]>(['conversation.started', 'lead.captured']);
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const fieldError = (name: string) => (error && error.field.replace(/^body\./, '') === name ? error.message : null);
  return (
    <form
      className="space-y-3 rounded-lg border border-border p-3"
      aria-label="Add endpoint"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { url, description, events },
          {
            onSuccess: () => {
              toast.success('Endpoint added');
              onDone();
            },
            onError: (thrown) =>
              setError({
                field: thrown instanceof ApiError && thrown.field ? thrown.field : 'url',
                message:
                  thrown instanceof Error ? thrown.message.replace(/^url: /, '') : 'The endpoint could not be added',
              }),
          },
        );
      }}
    >
      <div>
        <Label htmlFor="webhook-url">Endpoint URL</Label>
        <Input
          id="webhook-url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://hooks.zapier.com/hooks/catch/..."
          aria-invalid={fieldError('url') ? true : undefined}
          aria-describedby={fieldError('url') ? 'webhook-url-error' : undefined}
        />
        <FieldError id="webhook-url-error">{fieldError('url')}</FieldError>
      </div>
      <div>
        <Label htmlFor="webhook-description">Description (optional)</Label>
        <Input
          id="webhook-description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="Leads to our CRM"
        />
      </div>
      <EventChoices idPrefix="new-webhook" chosen={events} onChange={setEvents} />
      <FieldError>{fieldError('events')}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={create.isPending || !url.trim() || events.length === 0}>
          {create.isPending ? 'Adding...' : 'Add endpoint'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
};

const stateOf = (endpoint: TWebhookEndpoint) =>
  endpoint.enabled ? 'Active' : endpoint.disabledReason ? 'Turned off by Switchboard' : 'Off';

const EndpointRow = ({ connectId, endpoint }: { connectId: string; endpoint: TWebhookEndpoint }) => {
  const { update, remove } = useWebhookEndpoints(connectId);
  const [showLog, setShowLog] = useState(false);
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState<TWebhookEventType[]>(endpoint.events);
  const [deleting, setDeleting] = useState(false);
  return (
    <li className="space-y-2 border-t border-border pt-4 first:border-t-0 first:pt-0">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description ? <p className="text-sm text-muted">{endpoint.description}</p> : null}
          <p className="text-xs text-muted">
            <span className={endpoint.enabled ? 'font-medium text-foreground' : 'text-danger'}>
              {stateOf(endpoint)}
            </span>
            {endpoint.lastDelivery
              ? ` · last delivery ${endpoint.lastDelivery.status}${
                  endpoint.lastDelivery.responseStatus ? ` (${endpoint.lastDelivery.responseStatus})` : ''
                } ${new Date(endpoint.lastDelivery.at).toLocaleString('en-US')}`
              : ' · nothing sent yet'}
          </p>
          {endpoint.disabledReason ? <p className="text-xs text-danger">{endpoint.disabledReason}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => setShowLog((open) => !open)} aria-expanded={showLog}>
            {showLog ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setEditing((open) => !open)} aria-expanded={editing}>
            Events
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: endpoint.id, body: { enabled: !endpoint.enabled } },
                { onSuccess: () => toast.success(endpoint.enabled ? 'Endpoint turned off' : 'Endpoint turned on') },
              )
            }
          >
            {endpoint.enabled ? 'Turn off' : 'Turn on'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(true)} aria-label={`Delete ${endpoint.url}`}>
            Delete
          </Button>
        </div>
      </div>
      <ul className="flex flex-wrap gap-1" aria-label="Chosen events">
        {endpoint.events.map((type) => (
          <li key={type} className="rounded-full bg-surface-2 px-2 py-0.5 text-xs">
            {labelOf(type)}
          </li>
        ))}
      </ul>
      {editing ? (
        <div className="space-y-2 rounded-lg border border-border p-3">
          <EventChoices idPrefix={endpoint.id} chosen={events} onChange={setEvents} />
          <Button
            size="sm"
            disabled={update.isPending || events.length === 0}
            onClick={() =>
              update.mutate(
                { id: endpoint.id, body: { events } },
                {
                  onSuccess: () => {
                    toast.success('Events saved');
                    setEditing(false);
                  },
                },
              )
            }
          >
            Save events
          </Button>
        </div>
      ) : null}
      <SecretReveal connectId={connectId} endpointId={endpoint.id} />
      {showLog ? <DeliveryLog connectId={connectId} endpointId={endpoint.id} /> : null}
      <ConfirmDeleteDialog
        title="Delete endpoint"
        description="The endpoint stops receiving events and its delivery log is deleted."
        open={deleting}
        onOpenChange={setDeleting}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(endpoint.id, {
            onSuccess: () => {
              toast.success('Endpoint deleted');
              setDeleting(false);
            },
          })
        }
      />
    </li>
  );
};

/**
 * Outbound webhooks of the sub-account: endpoints that receive its events, signed by the Standard
 * Webhooks scheme, with their secrets, delivery logs, resend and a test event.
 */
export const WebhooksCard = ({ connectId }: { connectId: string }) => {
  const { list } = useWebhookEndpoints(connectId);
  const [adding, setAdding] = useState(false);
  const endpoints = list.data?.endpoints ?? [];
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold">Webhooks</h2>
          <p className="text-sm text-muted">
            Send this account's events to n8n, Make, Zapier or your own server. Every request is signed; see the{' '}
            <Link to="/docs/webhooks" className="font-medium underline decoration-primary decoration-2">
              event reference
            </Link>
            .
          </p>
        </div>
        {adding ? null : <Button onClick={() => setAdding(true)}>Add endpoint</Button>}
      </div>
      {adding ? <AddEndpointForm connectId={connectId} onDone={() => setAdding(false)} /> : null}
      {list.isLoading ? <Spinner label="Loading webhooks" /> : null}
      {list.isSuccess && endpoints.length === 0 && !adding ? (
        <p className="text-sm text-muted">No endpoints yet.</p>
      ) : null}
      <ul className="space-y-4">
        {endpoints.map((endpoint) => (
          <EndpointRow key={endpoint.id} connectId={connectId} endpoint={endpoint} />
        ))}
      </ul>
    </Card>
  );
};
