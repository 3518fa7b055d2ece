import { ChevronLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';

/** The agent page header: name, Agent ID and Type, and a back button to the sub-account's agents. */
export const AgentPageHeader = ({
  name,
  agentId,
  type,
  subaccountId,
}: {
  name: string;
  agentId: string;
  type: string;
  subaccountId: string;
}) => (
  <div className="mb-6 flex items-start gap-3">
    <Link
      to={`/subaccounts/${subaccountId}/agents`}
      aria-label="Back to agents"
      className="mt-1 rounded-md p-2 hover:bg-surface-2"
    >
      <ChevronLeft size={20} />
    </Link>
    <div className="min-w-0">
      <h1 className="truncate text-2xl font-semibold">{name}</h1>
      <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
        <div className="flex gap-1">
          <dt>Agent ID:</dt>
          <dd className="font-mono">{agentId}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Type:</dt>
          <dd>{type}</dd>
        </div>
      </dl>
    </div>
  </div>
);

/** The wizard footer: Back and Next (label customisable; Loading... while busy). */
export const WizardFooter = ({
  onBack,
  onNext,
  nextLabel = 'Next',
  busy = false,
  nextDisabled = false,
}: {
  onBack?: () => void;
  onNext: () => void;
  nextLabel?: string;
  busy?: boolean;
  nextDisabled?: boolean;
}) => (
  <div className="mt-6 flex items-center justify-between border-t border-border pt-4">
    <Button variant="secondary" onClick={onBack} disabled={!onBack || busy}>
      Back
    </Button>
    <Button onClick={onNext} disabled={busy || nextDisabled}>
      {busy ? 'Loading...' : nextLabel}
    </Button>
  </div>
);
