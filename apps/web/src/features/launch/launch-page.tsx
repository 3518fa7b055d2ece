import { LAUNCH_CHANNEL_LABELS, setupPathOf, type TLaunchSubaccount } from '@switchboard/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/card';
import { AppToolIssues } from './app-tool-issues';
import { ConnectionCard } from './connection-card';
import { StateBadge } from './state-badge';
import { type ChannelSummary, useChannelSummaries, useLaunch } from './use-launch';

const ChannelCard = ({ summary, sub }: { summary: ChannelSummary; sub: TLaunchSubaccount }) => {
  const label = LAUNCH_CHANNEL_LABELS[summary.channel];
  const canEdit = sub.role !== 'viewer' && !sub.locked;
  const headingId = `channel-${sub.subaccountId}-${summary.channel}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col rounded-xl border border-border bg-surface p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {label}
        </h3>
        <StateBadge state={summary.state} testId={`channel-state-${sub.subaccountId}-${summary.channel}`} />
      </div>
      {summary.connections.length ? (
        <ul className="mt-3 space-y-3">
          {summary.connections.map((record) => (
            <ConnectionCard key={record.connectionId} record={record} canEdit={canEdit} />
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted">No agent is on this channel yet.</p>
      )}
      <Link
        to={setupPathOf(summary.channel, sub.subaccountId, false)}
        className="mt-3 text-sm underline decoration-primary decoration-2"
      >
        {summary.connections.length ? `Add another ${label}` : `Set up ${label}`}
        <span className="sr-only"> for {sub.name}</span>
      </Link>
    </section>
  );
};

const SubaccountChannels = ({ sub }: { sub: TLaunchSubaccount }) => {
  const summaries = useChannelSummaries(sub.subaccountId, sub.connections);
  const headingId = `launch-${sub.subaccountId}`;
  const live = summaries.filter((summary) => summary.state === 'live').length;
  return (
    <section aria-labelledby={headingId} className="mb-10">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {sub.name}
        </h2>
        <p className="text-sm text-muted">
          {live} of {summaries.length} channels live ·{' '}
          <Link to={`/${sub.subaccountId}/dashboard`} className="underline decoration-primary decoration-2">
            Dashboard<span className="sr-only"> of {sub.name}</span>
          </Link>
        </p>
      </div>
      {sub.locked ? (
        <p className="mb-3 rounded-lg border border-border bg-surface-2 p-3 text-sm">
          This sub-account is locked by your plan: its channels answer no visitors until it is unlocked.
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        {summaries.map((summary) => (
          <ChannelCard key={summary.channel} summary={summary} sub={sub} />
        ))}
      </div>
      <AppToolIssues issues={sub.appToolIssues ?? []} subaccountName={sub.name} />
    </section>
  );
};

/** /connect: where an agency puts agents live, for every sub-account and channel. */
export const LaunchPage = () => {
  const [page, setPage] = useState(1);
  const launch = useLaunch({ page });
  return (
    <div className="mx-auto max-w-6xl">
      <p className="mb-6 text-sm text-muted">
        Every client’s channels, their state and what each needs next. Pausing a channel makes it answer visitors that
        the connection is inactive until you activate it again.
      </p>
      {launch.isLoading ? <Spinner label="Loading channels" /> : null}
      {launch.isError ? (
        <p role="alert" className="text-sm">
          The channels could not be loaded.{' '}
          <Button size="sm" variant="secondary" onClick={() => launch.refetch()}>
            Retry
          </Button>
        </p>
      ) : null}
      {launch.data?.subaccounts.map((sub) => (
        <SubaccountChannels key={sub.subaccountId} sub={sub} />
      ))}
      {launch.data && (page > 1 || launch.data.hasMore) ? (
        <nav aria-label="Sub-account pages" className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={!launch.data.hasMore} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
};
