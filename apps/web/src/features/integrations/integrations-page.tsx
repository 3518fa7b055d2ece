import { INTEGRATION_STATUS_LABELS, type TIntegrationApp, type TIntegrationConnection } from '@switchboard/core';
import { FlaskConical, KeyRound, Link2, RefreshCw, Search, Unplug } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { useSession } from '../session/session';
import {
  useIntegrationApps,
  useIntegrationConnections,
  useIntegrationMutations,
  useIntegrationStatus,
  useSandboxRecords,
} from './api';
import { ApiKeyDialog } from './api-key-dialog';
import { IntegrationsTabs } from './integrations-tabs';
import { SandboxRecords } from './sandbox-records';
import { IntegrationStatusBadge, SandboxLabel } from './status-badge';

/** /integrations: connect apps (Composio, or the sandbox catalogue), see their status and what agents did in them. */
export const IntegrationsPage = () => {
  const { currentSubaccount } = useSession();
  const subaccountId = currentSubaccount?.id ?? null;
  const canEdit = currentSubaccount?.role !== 'viewer';
  const apps = useIntegrationApps(subaccountId);
  const connections = useIntegrationConnections(subaccountId);
  const status = useIntegrationStatus(subaccountId);
  const sandbox = apps.data?.sandbox ?? false;
  const records = useSandboxRecords(
    subaccountId,
    Boolean(connections.data?.connections.some((connection) => connection.sandbox)),
  );
  const mutations = useIntegrationMutations();
  const [params, setParams] = useSearchParams();
  const [keyApp, setKeyApp] = useState<TIntegrationApp | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<TIntegrationConnection | null>(null);
  const [query, setQuery] = useState('');

  // The outcome of an OAuth round trip, said once.
  useEffect(() => {
    const connected = params.get('connected');
    const error = params.get('error');
    if (!connected && !error) return;
    if (connected) toast.success('App connected');
    else toast.error(error === 'pending' ? 'The app is not connected yet' : 'The app could not be connected');
    const next = new URLSearchParams(params);
    next.delete('connected');
    next.delete('error');
    setParams(next, { replace: true });
  }, [params, setParams]);

  const byApp = useMemo(
    () => new Map((connections.data?.connections ?? []).map((connection) => [connection.appSlug, connection])),
    [connections.data],
  );
  /** The badge reads the status store's connection:{id} entry (the record's own status until it loads). */
  const statusOf = (connection: TIntegrationConnection) =>
    (status.data?.entries[`connection:${connection.id}`] as TIntegrationConnection['status'] | undefined) ??
    connection.status;

  const connect = (app: TIntegrationApp, apiKey?: string) => {
    if (app.authKind === 'api_key' && apiKey === undefined) {
      setKeyError(null);
      setKeyApp(app);
      return;
    }
    mutations.connect.mutate(
      { appSlug: app.slug, ...(apiKey ? { apiKey } : {}) },
      {
        onSuccess: (result) => {
          if (result.redirectUrl) {
            window.location.assign(result.redirectUrl);
            return;
          }
          setKeyApp(null);
          toast.success(`${app.name} connected`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.field === 'apiKey') setKeyError(error.message);
          else showErrorDialog(error);
        },
      },
    );
  };

  const reconnect = (connection: TIntegrationConnection) => {
    const app = apps.data?.apps.find((item) => item.slug === connection.appSlug);
    if (app) connect(app);
  };

  const shown = (apps.data?.apps ?? []).filter((app) =>
    `${app.name} ${app.slug} ${app.description}`.toLowerCase().includes(query.trim().toLowerCase()),
  );

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeading title="Integrations" description="Connect the apps your agents use as tools." />
      <IntegrationsTabs />
      {sandbox ? (
        <p className="mb-5 flex items-start gap-2 rounded-lg border border-border bg-surface-2 p-3 text-sm">
          <FlaskConical size={16} className="mt-0.5 shrink-0" aria-hidden="true" />
          <span>
            <strong>Sandbox apps.</strong> No Composio key is configured (COMPOSIO_API_KEY), so these are sandbox apps:
            their tools really run, against this workspace's own records, and nothing reaches a real calendar, CRM or
            mailbox.
          </span>
        </p>
      ) : null}

      <section aria-labelledby="connections-heading" className="mb-8">
        <h2 id="connections-heading" className="mb-3 text-lg font-semibold">
          Your connections
        </h2>
        {connections.isLoading ? <Spinner label="Loading connections" /> : null}
        {connections.data && !connections.data.connections.length ? (
          <p className="text-sm text-muted">No app is connected yet. Connect one below.</p>
        ) : null}
        <ul className="grid gap-3 md:grid-cols-2" aria-label="Connections">
          {connections.data?.connections.map((connection) => (
            <li key={connection.id} data-app={connection.appSlug}>
              <Card className="flex h-full flex-col gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-semibold">{connection.appName}</h3>
                  {connection.sandbox ? <SandboxLabel /> : null}
                  <span className="ml-auto">
                    <IntegrationStatusBadge
                      status={statusOf(connection)}
                      appName={connection.appName}
                      busy={mutations.connect.isPending}
                      onAction={canEdit ? () => reconnect(connection) : undefined}
                    />
                  </span>
                </div>
                <p className="text-sm text-muted">
                  {connection.discoveredTools.length} tools ·{' '}
                  {connection.authKind === 'oauth' ? 'Signed in with OAuth' : 'API key'}
                </p>
                {connection.lastError && connection.status !== 'connected' ? (
                  <p className="text-sm text-danger">{connection.lastError}</p>
                ) : null}
                {canEdit ? (
                  <div className="mt-auto flex flex-wrap gap-2">
                    {connection.status === 'pending_connection' ? (
                      <Button size="sm" variant="secondary" onClick={() => reconnect(connection)}>
                        <Link2 size={14} aria-hidden="true" /> Finish connecting
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={mutations.rediscover.isPending}
                      onClick={() =>
                        mutations.rediscover.mutate(connection.id, {
                          onSuccess: (updated) => toast.success(`${updated.discoveredTools.length} tools found`),
                        })
                      }
                    >
                      <RefreshCw size={14} aria-hidden="true" /> Refresh tools
                      <span className="sr-only"> of {connection.appName}</span>
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setLeaving(connection)}>
                      <Unplug size={14} aria-hidden="true" /> Disconnect
                      <span className="sr-only"> {connection.appName}</span>
                    </Button>
                  </div>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="apps-heading" className="mb-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="apps-heading" className="text-lg font-semibold">
            Browse apps
          </h2>
          <div className="relative w-full sm:w-64">
            <Label htmlFor="app-search" className="sr-only">
              Search apps
            </Label>
            <Search size={14} className="absolute top-3 left-3 text-muted" aria-hidden="true" />
            <Input
              id="app-search"
              className="pl-8"
              placeholder="Search apps"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </div>
        </div>
        {apps.isLoading ? <Spinner label="Loading apps" /> : null}
        {apps.isError ? <p className="text-sm">The apps could not be loaded.</p> : null}
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Apps">
          {shown.map((app) => {
            const connection = byApp.get(app.slug);
            const state = connection ? statusOf(connection) : null;
            return (
              <li key={app.slug}>
                <Card className="flex h-full flex-col gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    {app.logo ? <img src={app.logo} alt="" width={24} height={24} className="rounded" /> : null}
                    <h3 className="font-semibold">{app.name}</h3>
                    {app.sandbox ? <SandboxLabel /> : null}
                  </div>
                  <p className="text-sm text-muted">{app.description}</p>
                  <p className="text-xs text-muted">
                    {app.authKind === 'oauth' ? (
                      'Connects with OAuth'
                    ) : (
                      <>
                        <KeyRound size={12} className="mr-1 inline" aria-hidden="true" />
                        Connects with an API key
                      </>
                    )}
                  </p>
                  <div className="mt-auto">
                    {state === 'connected' ? (
                      <IntegrationStatusBadge status="connected" />
                    ) : (
                      <Button size="sm" disabled={!canEdit || mutations.connect.isPending} onClick={() => connect(app)}>
                        {state
                          ? INTEGRATION_STATUS_LABELS[state === 'pending_connection' ? 'auth_required' : state]
                          : 'Connect'}
                        <span className="sr-only"> {app.name}</span>
                      </Button>
                    )}
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>

      {records.data ? (
        <section aria-labelledby="sandbox-records-heading" className="mb-8">
          <h2 id="sandbox-records-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold">
            What agents did in the sandbox apps <SandboxLabel />
          </h2>
          <SandboxRecords records={records.data.records} />
        </section>
      ) : null}

      <ApiKeyDialog
        app={keyApp}
        onOpenChange={(open) => {
          if (!open) setKeyApp(null);
        }}
        busy={mutations.connect.isPending}
        error={keyError}
        onSubmit={(apiKey) => keyApp && connect(keyApp, apiKey)}
      />
      <Dialog
        open={Boolean(leaving)}
        onOpenChange={(open) => {
          if (!open) setLeaving(null);
        }}
        title={leaving ? `Disconnect ${leaving.appName}?` : 'Disconnect'}
        description="Agents that use its tools can no longer call them until you connect the app again."
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setLeaving(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={mutations.disconnect.isPending}
            onClick={() =>
              leaving &&
              mutations.disconnect.mutate(leaving.id, {
                onSuccess: () => {
                  toast.success(`${leaving.appName} disconnected`);
                  setLeaving(null);
                },
              })
            }
          >
            Disconnect
          </Button>
        </div>
      </Dialog>
    </div>
  );
};
