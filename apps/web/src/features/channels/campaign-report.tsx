import {
  SANDBOX_NOTICE,
  type TCampaign,
  type TCampaignHold,
  type TCampaignTimeline,
  type TChannelConnection,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { CampaignChart } from './campaign-chart';
import { CampaignActionDialog } from './campaign-confirm';
import { CampaignTracking } from './campaign-tracking';
import { SequenceReport } from './sequence-report';

export const STATUS_LABELS: Record<TCampaign['status'], string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const HOLD_TITLES: Record<TCampaignHold['reason'], string> = {
  channel_paused: 'Waiting: the channel is paused',
  auth_failed: 'Waiting: Twilio refused the credentials',
  dispatch_failed: 'Stopped: sending failed',
};

const FIGURES = [
  ['queued', 'Queued'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
  ['replied', 'Replied'],
  ['optedOut', 'Opted out'],
] as const;

type Action = 'start' | 'pause' | 'resume' | 'cancel' | 'retry-unsent';

/** A campaign held for its channel's pause or refused credentials goes on by itself once they are fixed. */
const resumable = (hold: TCampaign['hold']) => !hold || hold.reason === 'dispatch_failed';

/** Why the campaign paused itself, and the one thing that lets it go on. */
const HoldNotice = ({ hold }: { hold: TCampaignHold }) => {
  const [params] = useSearchParams();
  const settings = new URLSearchParams(params);
  settings.set('tab', 'settings');
  return (
    <div role="status" className="mt-3 rounded-lg border border-amber-500/60 bg-amber-500/10 p-3 text-sm">
      <p className="font-semibold">{HOLD_TITLES[hold.reason]}</p>
      <p className="mt-1">
        {hold.code}: {hold.message}
      </p>
      {hold.reason === 'auth_failed' ? (
        <Link to={{ search: settings.toString() }} className="mt-2 inline-block font-medium underline">
          Update Credentials
        </Link>
      ) : null}
      {hold.reason === 'channel_paused' ? (
        <Link to="/connect" className="mt-2 inline-block font-medium underline">
          Activate Connection
        </Link>
      ) : null}
    </div>
  );
};

/** Asks before "Retry unsent", saying what it does. */
const RetryUnsentDialog = ({
  campaign,
  busy,
  onConfirm,
  onClose,
}: {
  campaign: TCampaign;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const count = campaign.figures.unconfirmed ?? 0;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open || busy ? undefined : onClose())}
      title="Retry unsent messages?"
      description={`Twilio is asked again about the ${count} ${count === 1 ? 'message' : 'messages'} in doubt. Those it already sent are marked sent; only the others are sent, once.${
        campaign.status === 'sending' ? '' : ' The campaign goes on sending until they are done.'
      }`}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={busy}>
          Retry unsent
        </Button>
      </div>
    </Dialog>
  );
};

/** Sends in doubt the provider could not be asked about, and the action for them. */
const UnconfirmedNotice = ({ count, onRetry }: { count: number; onRetry: (() => void) | null }) => (
  <div
    role="status"
    className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-border bg-surface-2 p-3 text-sm"
  >
    <p className="min-w-0 flex-1">
      <span className="font-semibold" data-testid="figure-unconfirmed">
        {count} unconfirmed
      </span>
      : the sending stopped before these were confirmed, and Twilio could not be asked whether they went out.
    </p>
    {onRetry ? (
      <Button size="sm" onClick={onRetry}>
        Retry unsent
      </Button>
    ) : null}
  </div>
);

/** One campaign's report: state, figures, chart and actions. */
export const CampaignReport = ({
  connection,
  campaign,
  canEdit,
  onEdit,
  onCloned,
}: {
  connection: TChannelConnection;
  campaign: TCampaign;
  canEdit: boolean;
  onEdit: () => void;
  onCloned?: (copy: TCampaign) => void;
}) => {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [asking, setAsking] = useState<'start' | 'pause' | null>(null);
  const timeline = useQuery({
    queryKey: ['channel', connection.connectionId, 'timeline', campaign.campaignId],
    queryFn: () =>
      api<TCampaignTimeline>(`/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}/timeline`, {
        silent: true,
      }),
  });
  const act = useMutation({
    mutationFn: (action: Action) =>
      api<TCampaign>(`/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}/${action}`, {
        method: 'POST',
        silent: true,
      }),
    onSuccess: () => {
      setConfirming(false);
      setAsking(null);
      return client.invalidateQueries({ queryKey: ['channel', connection.connectionId] });
    },
    onError: (failure) => {
      setConfirming(false);
      setAsking(null);
      showErrorDialog(failure);
    },
  });
  const clone = useMutation({
    mutationFn: () =>
      api<TCampaign>(`/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}/clone`, {
        method: 'POST',
        silent: true,
      }),
    onSuccess: (copy) => onCloned?.(copy),
    onError: (failure) => showErrorDialog(failure),
  });
  const f = campaign.figures;
  const unconfirmed = f.unconfirmed ?? 0;
  const retryable = canEdit && unconfirmed > 0 && !['draft', 'scheduled', 'cancelled'].includes(campaign.status);
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="min-w-0 flex-1 text-lg font-semibold">{campaign.name}</h2>
        <span className="rounded-full bg-surface-2 px-3 py-1 text-xs font-semibold" data-testid="campaign-status">
          {STATUS_LABELS[campaign.status]}
        </span>
        {campaign.sandbox ? (
          <span className="rounded-full bg-amber-500/15 px-3 py-1 text-xs font-semibold text-amber-900 dark:text-amber-200">
            {SANDBOX_NOTICE}
          </span>
        ) : null}
      </div>
      {campaign.scheduledFor && campaign.status === 'scheduled' ? (
        <p className="mt-1 text-sm text-muted">
          Sends at {campaign.sendAt?.replace('T', ' ')} ({campaign.timeZone})
        </p>
      ) : null}
      {campaign.hold ? <HoldNotice hold={campaign.hold} /> : null}
      <dl className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-6" aria-label="Campaign figures">
        {FIGURES.map(([key, label]) => (
          <div key={key} className="rounded-lg border border-border p-2 text-center">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="text-xl font-semibold" data-testid={`figure-${key}`}>
              {f[key]}
            </dd>
          </div>
        ))}
      </dl>
      {unconfirmed > 0 ? (
        <UnconfirmedNotice count={unconfirmed} onRetry={retryable ? () => setConfirming(true) : null} />
      ) : null}
      <p className="mt-2 text-xs text-muted">
        {f.total} recipients
        {f.suppressed ? `, ${f.suppressed} skipped: suppressed (opted out or failed for good)` : ''}
        {f.skipped > f.suppressed
          ? `, ${f.skipped - f.suppressed} skipped (no WhatsApp window or a missing value)`
          : ''}
        .
        {campaign.failures.length
          ? ` Failures: ${campaign.failures.map((x) => `${x.errorCode} × ${x.count}`).join(', ')}.`
          : ''}
      </p>
      <SequenceReport connectionId={connection.connectionId} campaignId={campaign.campaignId} />
      <div className="mt-4">{timeline.data ? <CampaignChart timeline={timeline.data} /> : null}</div>
      <div className="mt-4 flex flex-wrap gap-2">
        {canEdit && campaign.status === 'draft' ? (
          <>
            <Button onClick={() => setAsking('start')} disabled={act.isPending}>
              {campaign.sendAt ? 'Schedule' : 'Send now'}
            </Button>
            <Button variant="secondary" onClick={onEdit}>
              Edit
            </Button>
          </>
        ) : null}
        {canEdit && (campaign.status === 'sending' || campaign.status === 'scheduled') ? (
          <Button variant="secondary" onClick={() => setAsking('pause')}>
            Pause
          </Button>
        ) : null}
        {canEdit && campaign.status === 'paused' && resumable(campaign.hold) ? (
          <Button onClick={() => act.mutate('resume')}>Resume</Button>
        ) : null}
        {canEdit && !['completed', 'cancelled', 'draft'].includes(campaign.status) ? (
          <Button variant="danger" onClick={() => act.mutate('cancel')}>
            Cancel campaign
          </Button>
        ) : null}
        {canEdit ? (
          <Button variant="secondary" onClick={() => clone.mutate()} disabled={clone.isPending}>
            Clone
          </Button>
        ) : null}
        {campaign.status !== 'draft' ? (
          <a
            href={`/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}/export.csv`}
            className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm font-medium"
            download
          >
            Export CSV
          </a>
        ) : null}
      </div>
      {campaign.status !== 'draft' && campaign.status !== 'scheduled' ? (
        <CampaignTracking connection={connection} campaign={campaign} />
      ) : null}
      {asking ? (
        <CampaignActionDialog
          connectionId={connection.connectionId}
          campaign={campaign}
          action={asking}
          busy={act.isPending}
          onConfirm={() => act.mutate(asking)}
          onClose={() => setAsking(null)}
        />
      ) : null}
      {confirming ? (
        <RetryUnsentDialog
          campaign={campaign}
          busy={act.isPending}
          onConfirm={() => act.mutate('retry-unsent')}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Card>
  );
};
