import { CLIENT_SWITCHES, type TClientSwitch } from '@switchboard/core';
import { Card, Spinner } from '../../components/ui/card';
import { showErrorDialog } from '../errors/error-dialog';
import { useClientAccess, useSaveClientAccess } from './api';

const SWITCHES: Record<TClientSwitch, { label: string; description: string }> = {
  editAgents: {
    label: 'Edit agents',
    description: "Change the agents' settings, knowledge and tools, and test them. Creating and deleting stay yours.",
  },
  inbox: { label: 'Inbox', description: 'Take over conversations and reply to visitors.' },
  campaigns: { label: 'Campaigns and contacts', description: 'See and run campaigns, and manage contacts.' },
};

/**
 * The switches of one client: what its people (role Client) may do in their portal beyond
 * reading their agents, conversations, usage and plan. The agency's manager's.
 */
export const ClientAccessCard = ({
  subaccountId,
  subaccountName,
}: {
  subaccountId: string;
  subaccountName: string;
}) => {
  const access = useClientAccess(subaccountId);
  const save = useSaveClientAccess(subaccountId);
  return (
    <Card className="space-y-4">
      <div>
        <h2 className="font-semibold">Client access</h2>
        <p className="text-sm text-muted">
          What people you invite to {subaccountName} with the Client role may do in their portal. They always see their
          agents, conversations, usage and plan, and never your billing, team or other clients.
        </p>
      </div>
      {access.isLoading || !access.data ? (
        <Spinner label="Loading client access" />
      ) : (
        <ul className="divide-y divide-border">
          {CLIENT_SWITCHES.map((key) => {
            const id = `client-access-${key}`;
            const on = access.data.access[key];
            return (
              <li key={key} className="flex items-start justify-between gap-4 py-3">
                <div className="min-w-0">
                  <label htmlFor={id} className="text-sm font-medium">
                    {SWITCHES[key].label}
                  </label>
                  <p id={`${id}-description`} className="text-sm text-muted">
                    {SWITCHES[key].description}
                  </p>
                </div>
                <button
                  id={id}
                  type="button"
                  role="switch"
                  aria-checked={on}
                  aria-describedby={`${id}-description`}
                  disabled={save.isPending}
                  onClick={() => save.mutate({ [key]: !on }, { onError: (error) => showErrorDialog(error) })}
                  className={`relative h-6 w-11 shrink-0 rounded-full border border-border transition-colors ${on ? 'bg-primary' : 'bg-surface-2'}`}
                >
                  <span className="sr-only">{on ? 'On' : 'Off'}</span>
                  <span
                    aria-hidden="true"
                    className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-all ${on ? 'left-6' : 'left-0.5'}`}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
};
