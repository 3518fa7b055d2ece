import { CHANNEL_STATE_LABELS, SANDBOX_NOTICE, settingsPathOf, type TLaunchConnection } from '@switchboard/core';
import { Check, Circle } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { StateBadge } from './state-badge';
import { usePauseConnection } from './use-launch';

/** Where an error's action takes the agency (Activate Connection resumes in place). */
const actionTarget = (action: string, record: TLaunchConnection): string | null => {
  switch (action) {
    case 'View Builds':
      return '/agents';
    case 'View Plans':
      return '/?scrollToPricing=true';
    case 'Upgrade Plan':
    case 'View Billing':
      return '/usage';
    case 'Contact Support':
      return '/support';
    // Credentials are entered again on the connection's settings tab, not its campaigns.
    case 'Update Credentials':
    case 'Reconnect':
      return settingsPathOf(record.type, record.connectionId);
    default:
      return record.setupPath;
  }
};

/** One connection of a channel: its state, the error and its actions, the checklist, setup, pause. */
export const ConnectionCard = ({ record, canEdit }: { record: TLaunchConnection; canEdit: boolean }) => {
  const pause = usePauseConnection();
  const busy = pause.isPending;
  const next = record.checklist.filter((item) => !item.done);
  return (
    <li
      className="rounded-lg border border-border p-3"
      aria-label={`${record.name}: ${CHANNEL_STATE_LABELS[record.status]}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{record.name}</p>
          <p className="text-xs text-muted">
            {record.agentName ? `Agent: ${record.agentName}` : 'No agent'}
            {record.sandbox ? ` · ${SANDBOX_NOTICE}` : ''}
          </p>
        </div>
        <StateBadge state={record.status} testId={`record-state-${record.connectionId}`} />
      </div>
      {record.error ? (
        <div className="mt-2 rounded-md border border-border bg-surface-2 p-2 text-xs" role="note">
          <p>
            <code className="font-semibold">{record.error.code}</code> — {record.error.message}
          </p>
          {record.error.actions.length ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {record.error.actions.map((action) =>
                action === 'Activate Connection' ? (
                  canEdit ? (
                    <Button
                      key={action}
                      size="sm"
                      disabled={busy}
                      onClick={() => pause.mutate({ connectionId: record.connectionId, pause: false })}
                    >
                      {action}
                      <span className="sr-only"> {record.name}</span>
                    </Button>
                  ) : null
                ) : (
                  <Link
                    key={action}
                    to={actionTarget(action, record) ?? record.setupPath}
                    className="rounded-md border border-border px-2 py-1 font-medium hover:bg-surface"
                  >
                    {action}
                  </Link>
                ),
              )}
            </div>
          ) : null}
        </div>
      ) : null}
      <ul className="mt-2 space-y-1 text-xs" aria-label={`${record.name} checklist`}>
        {record.checklist.map((item) => (
          <li key={item.key} className="flex items-center gap-2">
            {item.done ? (
              <Check size={14} aria-hidden="true" className="text-green-600" />
            ) : (
              <Circle size={14} aria-hidden="true" className="text-muted" />
            )}
            <span className={item.done ? 'text-muted' : ''}>
              {item.label}
              <span className="sr-only">{item.done ? ' (done)' : ' (to do)'}</span>
              {!item.done && !item.required ? <span className="text-muted"> (optional)</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <Link
          to={record.setupPath}
          className="inline-flex h-8 items-center rounded-lg border border-border px-3 text-sm font-medium hover:bg-surface-2"
        >
          {next.some((item) => item.required) ? 'Continue setup' : 'Open'}
          <span className="sr-only"> {record.name}</span>
        </Link>
        {canEdit && record.status !== 'paused' ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => pause.mutate({ connectionId: record.connectionId, pause: true })}
          >
            Pause<span className="sr-only"> {record.name}</span>
          </Button>
        ) : null}
      </div>
    </li>
  );
};
