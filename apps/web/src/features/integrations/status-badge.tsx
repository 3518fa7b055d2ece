import { INTEGRATION_STATUS_LABELS, type TIntegrationStatus } from '@switchboard/core';
import { FlaskConical } from 'lucide-react';
import { cn } from '../../lib/cn';

const DOTS: Record<TIntegrationStatus, string> = {
  connected: 'bg-green-600',
  pending_connection: 'bg-amber-500',
  failed: 'bg-danger',
  auth_required: 'bg-danger',
};

/**
 * A connection's badge: Connected, Pending connection, or the catalogue's action when it needs one
 * ('Reconnect App' when it failed, 'Connect Account' when its account must sign in again). Given
 * `onAction`, those two are buttons that start the connection again.
 */
export const IntegrationStatusBadge = ({
  status,
  onAction,
  busy,
  appName,
}: {
  status: TIntegrationStatus;
  onAction?: () => void;
  busy?: boolean;
  appName?: string;
}) => {
  const className =
    'inline-flex shrink-0 items-center gap-1.5 rounded-full border border-border px-2 py-0.5 text-xs font-medium';
  const content = (
    <>
      <span aria-hidden="true" className={cn('inline-block h-2 w-2 rounded-full', DOTS[status])} />
      {INTEGRATION_STATUS_LABELS[status]}
    </>
  );
  if (onAction && (status === 'failed' || status === 'auth_required')) {
    return (
      <button
        type="button"
        data-status={status}
        className={cn(className, 'hover:bg-surface-2')}
        disabled={busy}
        onClick={onAction}
        aria-label={appName ? `${INTEGRATION_STATUS_LABELS[status]}: ${appName}` : undefined}
      >
        {content}
      </button>
    );
  }
  return (
    <span data-status={status} className={className}>
      {content}
    </span>
  );
};

/** Marks what comes from the sandbox catalogue (no COMPOSIO_API_KEY): nothing real is reached. */
export const SandboxLabel = () => (
  <span className="inline-flex items-center gap-1 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs font-medium text-foreground">
    <FlaskConical size={12} aria-hidden="true" /> Sandbox
  </span>
);
