import {
  channelItems,
  DASHBOARD_CHANNEL_LABELS,
  LAUNCH_CHANNELS,
  MESSAGE_SOURCE_LABELS,
  MESSAGE_SOURCES,
  type TConnectionDashboard,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useOutletContext } from 'react-router';
import { Card, PageHeading, Spinner } from '../../components/ui/card';
import { api } from '../../lib/api';
import { StateBadge } from '../launch/state-badge';
import { statusStore, useLaunch } from '../launch/use-launch';
import { useSession } from '../session/session';
import type { ConnectContext } from './connection-layout';
import { MessagesChart } from './dashboard-chart';

const PERIODS = [
  ['today', 'Today'],
  ['week', 'This week'],
  ['month', 'This month'],
] as const;
const number = (value: number) => value.toLocaleString('en');
const credits = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 1 });

export const useConnectionDashboard = (connectId: string) =>
  useQuery({
    queryKey: ['connection-dashboard', connectId],
    queryFn: () =>
      api<TConnectionDashboard>(`/api/connect/${encodeURIComponent(connectId)}/dashboard`, { silent: true }),
    refetchInterval: 30_000,
  });

const Figure = ({ label, value, testId, hint }: { label: string; value: ReactNode; testId: string; hint?: string }) => (
  <Card className="p-4">
    <div className="text-sm text-muted">{label}</div>
    <div className="mt-1 text-2xl font-semibold" data-testid={testId}>
      {value}
    </div>
    {hint ? <div className="mt-1 text-xs text-muted">{hint}</div> : null}
  </Card>
);

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section className="mt-8" aria-label={title}>
    <h2 className="mb-3 font-semibold">{title}</h2>
    {children}
  </section>
);

/** Today's messages of every channel by who sent them, the non-zero ones: "3 received · 50 campaigns". */
const sourcesHint = (data: TConnectionDashboard) => {
  const parts = MESSAGE_SOURCES.flatMap((source) => {
    const count = data.channels.reduce((sum, entry) => sum + entry.today.sources[source], 0);
    return count ? [`${number(count)} ${MESSAGE_SOURCE_LABELS[source].toLowerCase()}`] : [];
  });
  return parts.length ? parts.join(' · ') : undefined;
};

/** Today's messages per channel by who sent them (received, agent, team, campaigns, keyword replies). */
export const MessagesBySender = ({ data }: { data: TConnectionDashboard }) => (
  <div>
    <section
      className="relative overflow-x-auto rounded-xl border border-border"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      aria-label="Messages today per channel by sender table"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">Messages today per channel by sender</caption>
        <thead className="bg-surface-2 text-left">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Channel
            </th>
            {MESSAGE_SOURCES.map((source) => (
              <th key={source} scope="col" className="px-3 py-2 text-right font-medium">
                {MESSAGE_SOURCE_LABELS[source]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.channels.map((entry) => (
            <tr key={entry.channel} className="border-t border-border" data-testid={`sources-row-${entry.channel}`}>
              <th scope="row" className="px-3 py-2 text-left font-normal">
                {DASHBOARD_CHANNEL_LABELS[entry.channel] ?? entry.channel}
              </th>
              {MESSAGE_SOURCES.map((source) => (
                <td key={source} className="px-3 py-2 text-right tabular-nums">
                  {number(entry.today.sources[source])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  </div>
);

/** /{connectId}/dashboard: the sub-account's real figures and the state of its channels. */
export const ConnectionDashboardPage = () => {
  const context = useOutletContext<ConnectContext>();
  const { subaccounts } = useSession();
  const subaccount = subaccounts.find((item) => item.id === context.subaccountId);
  const dashboard = useConnectionDashboard(context.connectId);
  const launch = useLaunch({ subaccountId: context.subaccountId });
  const data = dashboard.data;
  const total = (period: 'today' | 'week' | 'month', what: 'conversations' | 'messages') =>
    data?.channels.reduce((sum, entry) => sum + entry[period][what], 0) ?? 0;
  const links = channelItems(context.connectId);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeading
        title={subaccount?.name ?? 'Dashboard'}
        description={`Your role: ${context.role}. Figures in UTC; weeks start on Monday.`}
      />
      {dashboard.isLoading ? <Spinner label="Loading figures" /> : null}
      {dashboard.isError ? (
        <p role="alert" className="text-sm">
          The figures could not be loaded.{' '}
          <button type="button" className="underline" onClick={() => dashboard.refetch()}>
            Retry
          </button>
        </p>
      ) : null}
      {data ? (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Figure
              label="Conversations today"
              value={number(total('today', 'conversations'))}
              testId="figure-conversations-today"
            />
            <Figure
              label="Messages today"
              value={number(total('today', 'messages'))}
              testId="figure-messages-today"
              hint={sourcesHint(data)}
            />
            <Figure
              label="Credits used this month"
              value={credits(data.credits.month)}
              testId="figure-credits-month"
              hint={`${credits(data.credits.today)} today`}
            />
            <Figure label="Open human take-overs" value={number(data.openTakeovers)} testId="figure-takeovers" />
          </div>

          <Section title="Conversations and messages per channel">
            {data.channels.length ? (
              <div>
                <section
                  className="relative overflow-x-auto rounded-xl border border-border"
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
                  tabIndex={0}
                  aria-label="Conversations and messages per channel table"
                >
                  <table className="w-full text-sm">
                    <caption className="sr-only">Conversations and messages per channel</caption>
                    <thead className="bg-surface-2 text-left">
                      <tr>
                        <th scope="col" className="px-3 py-2 font-medium">
                          Channel
                        </th>
                        {PERIODS.map(([key, label]) => (
                          <th key={key} scope="col" className="px-3 py-2 text-right font-medium">
                            {label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {data.channels.map((entry) => (
                        <tr
                          key={entry.channel}
                          className="border-t border-border"
                          data-testid={`channel-row-${entry.channel}`}
                        >
                          <th scope="row" className="px-3 py-2 text-left font-normal">
                            {DASHBOARD_CHANNEL_LABELS[entry.channel] ?? entry.channel}
                          </th>
                          {PERIODS.map(([key]) => (
                            <td key={key} className="px-3 py-2 text-right tabular-nums">
                              {number(entry[key].conversations)} conv. · {number(entry[key].messages)} msg.
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              </div>
            ) : (
              <p className="text-sm text-muted">No conversations this month yet.</p>
            )}
          </Section>

          {data.channels.length ? (
            <Section title="Messages today by sender">
              <MessagesBySender data={data} />
            </Section>
          ) : null}

          <Section title="Messages per day">
            <Card>
              <MessagesChart dashboard={data} />
            </Card>
          </Section>

          <Section title="Today’s widget messages">
            {data.widgets.length ? (
              <ul className="grid gap-3 sm:grid-cols-2">
                {data.widgets.map((widget) => {
                  const share = Math.min(
                    100,
                    Math.round((widget.todayMessages / Math.max(1, widget.dailyLimit)) * 100),
                  );
                  return (
                    <li key={widget.connectionId} className="rounded-xl border border-border bg-surface p-4">
                      <div className="flex items-baseline justify-between gap-2">
                        <Link
                          to={`/${widget.connectionId}/${widget.type}`}
                          className="truncate text-sm font-medium underline"
                        >
                          {widget.name}
                        </Link>
                        <span className="text-sm tabular-nums" data-testid={`widget-usage-${widget.connectionId}`}>
                          {number(widget.todayMessages)} / {number(widget.dailyLimit)}
                        </span>
                      </div>
                      <div
                        role="progressbar"
                        aria-label={`${widget.name}: visitor messages today against the daily limit`}
                        aria-valuemin={0}
                        aria-valuemax={widget.dailyLimit}
                        aria-valuenow={widget.todayMessages}
                        className="mt-2 h-2 overflow-hidden rounded-full bg-surface-2"
                      >
                        <div className="h-full bg-primary" style={{ width: `${share}%` }} />
                      </div>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="text-sm text-muted">
                No website widget yet.{' '}
                <Link to={`/${context.connectId}/add-agent`} className="underline">
                  Add an agent
                </Link>
              </p>
            )}
          </Section>

          <Section title="Last evaluation per agent">
            {data.evaluations.length ? (
              <ul className="grid gap-3 sm:grid-cols-2">
                {data.evaluations.map((entry) => (
                  <li key={entry.agentId} className="rounded-xl border border-border bg-surface p-4 text-sm">
                    <p className="font-medium">{entry.agentName}</p>
                    <p className="text-muted">
                      {entry.runName}
                      {entry.finishedAt ? ` · ${new Date(entry.finishedAt).toLocaleDateString()}` : ''}
                    </p>
                    <p className="mt-1 text-lg font-semibold">
                      {entry.passRate === null ? 'No graded answers' : `${Math.round(entry.passRate * 100)}% passed`}
                    </p>
                    <p className="text-xs text-muted">
                      {entry.passed} of {entry.graded} graded answers
                    </p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted">
                No finished evaluation yet.{' '}
                <Link to="/dashboard" className="underline">
                  Test an agent
                </Link>
              </p>
            )}
          </Section>
        </>
      ) : null}

      <Section title="Channels">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {LAUNCH_CHANNELS.map((channel, index) => {
            const link = links.find((item) => item.label.startsWith(channelLabelStart[channel])) ?? links[index];
            const state = launch.data ? statusStore.channelState(context.subaccountId, channel) : null;
            return (
              <li key={channel}>
                <Link
                  to={link?.path ?? '#'}
                  className="flex items-center justify-between gap-2 rounded-xl border border-border bg-surface p-4 hover:border-primary"
                >
                  <span>{link?.label}</span>
                  {state ? <StateBadge state={state} /> : null}
                </Link>
              </li>
            );
          })}
        </ul>
        <p className="mt-3 text-sm">
          <Link to="/connect" className="font-medium underline">
            Open Launch
          </Link>{' '}
          <span className="text-muted">to pause, resume or finish setting up a channel.</span>
        </p>
      </Section>
    </div>
  );
};

const channelLabelStart: Record<(typeof LAUNCH_CHANNELS)[number], string> = {
  'website-widget': 'Website Widget',
  'website-block': 'Website Block',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
};
