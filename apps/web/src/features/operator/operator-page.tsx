import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { NotFoundPage } from '../../app/not-found-page';
import { Spinner } from '../../components/ui/card';
import { SectionTabs } from '../channels/section-tabs';
import { useSession } from '../session/session';
import { usePageHeader } from '../workspace/page-header';
import { AccountsSection } from './accounts-section';
import { PayoutsSection } from './payouts-section';
import { TicketsSection } from './tickets-section';

const TABS = [
  ['tickets', 'Tickets'],
  ['payouts', 'Payouts'],
  ['accounts', 'Accounts'],
] as const;
type Tab = (typeof TABS)[number][0];

/** What /operator shows: a spinner while the session loads, "Page not found" to anyone but an operator. */
export const OperatorGate = ({
  loading,
  isOperator,
  children,
}: {
  loading: boolean;
  isOperator: boolean;
  children: ReactNode;
}) => {
  if (loading) return <Spinner label="Loading" />;
  if (!isOperator) return <NotFoundPage />;
  return <>{children}</>;
};

/** /operator: the platform's operators answer tickets, pay affiliates and look up accounts. */
export const OperatorPage = () => {
  const session = useSession();
  usePageHeader({ title: 'Operator' });
  return (
    <OperatorGate loading={session.loading} isOperator={session.isOperator}>
      <OperatorConsole />
    </OperatorGate>
  );
};

const OperatorConsole = () => {
  const [params] = useSearchParams();
  const tab: Tab = TABS.some(([key]) => key === params.get('tab')) ? (params.get('tab') as Tab) : 'tickets';
  return (
    <div className="mx-auto w-full max-w-6xl">
      <SectionTabs label="Operator sections" tabs={TABS} current={tab} clears={['ticket', 'status', 'query']} />
      {tab === 'tickets' ? <TicketsSection /> : null}
      {tab === 'payouts' ? <PayoutsSection /> : null}
      {tab === 'accounts' ? <AccountsSection /> : null}
    </div>
  );
};
