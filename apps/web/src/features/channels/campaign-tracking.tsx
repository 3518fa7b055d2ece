import {
  SANDBOX_NOTICE,
  type TCampaign,
  type TCampaignReplies,
  type TCampaignTracking,
  type TChannelConnection,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { SeriesChart } from './campaign-chart';

const SERIES = [
  ['clicks', 'Clicked', 'var(--color-primary)'],
  ['replies', 'Replied', '#7c3aed'],
  ['reported', 'Reported conversions', '#16a34a'],
] as const;

const ofSent = (count: number, sent: number) => `${count} of ${sent}`;
const percent = (count: number, sent: number) => (sent ? `${Math.round((count / sent) * 100)}%` : '–');

const bucketLabel = (at: string, bucket: TCampaignTracking['bucket']) => {
  const date = new Date(at);
  return bucket === 'hour'
    ? date.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
};

/** Clicks, replies and reported conversions per hour (first two days) or per day. */
const TrackingChart = ({ tracking }: { tracking: TCampaignTracking }) => {
  if (!tracking.points.length) return <p className="text-sm text-muted">No clicks, replies or conversions yet.</p>;
  const data = tracking.points.map((point) => ({ ...point, at: bucketLabel(point.at, tracking.bucket) }));
  return (
    <SeriesChart
      label={tracking.bucket === 'hour' ? 'Responses per hour' : 'Responses per day'}
      data={data}
      xKey="at"
      series={SERIES}
    />
  );
};

/** What the campaign led to: clicks on its short links, replies, conversions, over time, and the replies themselves. */
export const TrackingView = ({
  tracking,
  replies,
  subaccountId,
}: {
  tracking: TCampaignTracking;
  replies: TCampaignReplies['replies'];
  subaccountId: string;
}) => {
  const { sent } = tracking;
  const figures = [
    ['clicks', 'Clicks', String(tracking.clicks), null],
    ['clickers', 'Clicked', ofSent(tracking.uniqueClickers, sent), percent(tracking.uniqueClickers, sent)],
    ['replies', 'Replied', ofSent(tracking.replies, sent), percent(tracking.replies, sent)],
    ['converted', 'Converted', ofSent(tracking.converted, sent), percent(tracking.converted, sent)],
    [
      'reported',
      'Reported',
      String(tracking.reported),
      tracking.reportedValue ? `value ${tracking.reportedValue.toLocaleString()}` : null,
    ],
  ] as const;
  return (
    <section aria-labelledby="campaign-responses" className="mt-6">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="campaign-responses" className="min-w-0 flex-1 font-semibold">
          Responses
        </h3>
        {tracking.sandbox ? (
          <span className="rounded-full bg-amber-500/15 px-3 py-1 text-xs font-semibold text-amber-900 dark:text-amber-200">
            {SANDBOX_NOTICE}: test clicks
          </span>
        ) : null}
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Campaign responses">
        {figures.map(([key, label, value, note]) => (
          <div key={key} className="rounded-lg border border-border p-2 text-center">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="text-lg font-semibold" data-testid={`tracking-${key}`}>
              {value}
            </dd>
            {note ? <dd className="text-xs text-muted">{note}</dd> : null}
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-muted">
        Links in the message go out as short links, one per recipient. Converted: replied, clicked or reported by your
        system.
        {tracking.previews ? ` ${tracking.previews} link previews were not counted as clicks.` : ''}
      </p>
      <div className="mt-4">
        <TrackingChart tracking={tracking} />
      </div>
      <h3 className="mt-6 font-semibold">Replies</h3>
      {replies.length ? (
        <ul aria-label="Replies to this campaign" className="mt-2 divide-y divide-border">
          {replies.map((reply) => (
            <li key={reply.messageId} className="py-2 text-sm">
              <p className="flex flex-wrap gap-x-2">
                <span className="font-medium">{reply.name ?? reply.phone}</span>
                <span className="text-xs text-muted">{new Date(reply.at).toLocaleString()}</span>
              </p>
              <p className="mt-1 break-words">{reply.body}</p>
              {reply.threadId ? (
                <Link
                  to={`/${subaccountId}/inbox?thread=${encodeURIComponent(reply.threadId)}`}
                  className="mt-1 inline-block text-sm underline decoration-primary decoration-2"
                >
                  Open conversation
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted">No replies yet.</p>
      )}
    </section>
  );
};

/** The responses of a sent campaign, refreshed while the page is open. */
export const CampaignTracking = ({ connection, campaign }: { connection: TChannelConnection; campaign: TCampaign }) => {
  const base = `/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}`;
  const tracking = useQuery({
    queryKey: ['channel', connection.connectionId, 'tracking', campaign.campaignId],
    queryFn: () => api<TCampaignTracking>(`${base}/tracking`, { silent: true }),
    refetchInterval: 30_000,
  });
  const replies = useQuery({
    queryKey: ['channel', connection.connectionId, 'replies', campaign.campaignId],
    queryFn: () => api<TCampaignReplies>(`${base}/replies`, { silent: true }),
    refetchInterval: 30_000,
  });
  if (!tracking.data) return null;
  return (
    <TrackingView
      tracking={tracking.data}
      replies={replies.data?.replies ?? []}
      subaccountId={connection.subaccountId}
    />
  );
};
