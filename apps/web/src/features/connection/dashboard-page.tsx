import { channelItems } from '@switchboard/core';
import { Link, useOutletContext } from 'react-router';
import { Card, PageHeading } from '../../components/ui/card';
import { useSession } from '../session/session';
import type { ConnectContext } from './connection-layout';

/** /{connectId}/dashboard: the sub-account at a glance. */
export const ConnectionDashboardPage = () => {
  const context = useOutletContext<ConnectContext>();
  const { subaccounts } = useSession();
  const subaccount = subaccounts.find((item) => item.id === context.subaccountId);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeading title={subaccount?.name ?? 'Dashboard'} description={`Your role: ${context.role}`} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Card>
          <div className="text-sm text-muted">Agents</div>
          <div className="mt-1 text-3xl font-semibold">{subaccount?.agentCount ?? 0}</div>
        </Card>
        <Card>
          <div className="text-sm text-muted">Created</div>
          <div className="mt-1 text-lg font-semibold">
            {subaccount ? new Date(subaccount.createdAt).toLocaleDateString() : '—'}
          </div>
        </Card>
        <Card>
          <div className="text-sm text-muted">Status</div>
          <div className="mt-1 text-lg font-semibold">{subaccount?.locked ? 'Locked' : 'Active'}</div>
        </Card>
      </div>
      <h2 className="mt-8 mb-3 font-semibold">Channels</h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {channelItems(context.connectId).map((item) => (
          <li key={item.path}>
            <Link to={item.path} className="block rounded-xl border border-border bg-surface p-4 hover:border-primary">
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
};
