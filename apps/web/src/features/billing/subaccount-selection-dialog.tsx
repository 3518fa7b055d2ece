import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { accountsQueryKey, useSession } from '../session/session';
import { BILLING_CHANGED_EVENT, useBillingAccess } from './billing-api';

interface Selection {
  needsSelection: boolean;
  limit: number | null;
  subaccounts: {
    id: string;
    name: string;
    logoUrl: string | null;
    agentCount: number;
    createdAt: string;
    locked: boolean;
  }[];
}

const selectionKey = ['billing', 'subaccount-selection'] as const;

/**
 * 'Select Your Active Subaccount': shown when the plan allows fewer active sub-accounts than the
 * account has (after a change to Starter). The others are locked, not deleted. Not dismissible.
 */
export const SubaccountSelectionDialog = () => {
  const { user, currentSubaccount } = useSession();
  const { canManageBilling } = useBillingAccess();
  const queryClient = useQueryClient();
  const selection = useQuery({
    queryKey: [...selectionKey, currentSubaccount?.id],
    enabled: Boolean(user && currentSubaccount && canManageBilling),
    retry: false,
    staleTime: 60_000,
    queryFn: () => api<Selection>('/api/billing/subaccount-selection', { silent: true }),
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [word, setWord] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const refetch = () => void queryClient.invalidateQueries({ queryKey: selectionKey });
    window.addEventListener(BILLING_CHANGED_EVENT, refetch);
    return () => window.removeEventListener(BILLING_CHANGED_EVENT, refetch);
  }, [queryClient]);

  if (!selection.data?.needsSelection) return null;

  const pick = (id: string) => {
    setChosen(id);
    setConfirming(false);
    setWord('');
  };

  const next = async () => {
    if (!chosen) {
      toast.error('Please select a subaccount');
      return;
    }
    if (!confirming) {
      setConfirming(true);
      return;
    }
    if (word.trim().toLowerCase() !== 'confirm') {
      toast.error("Please type 'confirm' to proceed");
      return;
    }
    setBusy(true);
    try {
      await api('/api/billing/subaccount-selection', { body: { subaccountId: chosen }, silent: true });
      toast.success('Subaccount selected successfully');
      await queryClient.invalidateQueries({ queryKey: selectionKey });
      await queryClient.invalidateQueries({ queryKey: accountsQueryKey });
    } catch {
      toast.error('Failed to select subaccount');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={() => undefined}
      dismissible={false}
      hideClose
      title="Select Your Active Subaccount"
      description={`Your plan allows ${selection.data.limit ?? 1} active sub-account. The others are locked, not deleted; upgrading unlocks them.`}
      className="max-w-2xl"
    >
      <div className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2" role="radiogroup" aria-label="Sub-accounts">
          {selection.data.subaccounts.map((sub) => (
            // biome-ignore lint/a11y/useSemanticElements: a card-sized radio option
            <button
              key={sub.id}
              type="button"
              role="radio"
              aria-checked={chosen === sub.id}
              onClick={() => pick(sub.id)}
              className={cn(
                'flex items-center gap-3 rounded-xl border p-3 text-left',
                chosen === sub.id ? 'border-primary bg-surface-2' : 'border-border hover:bg-surface-2',
              )}
            >
              {sub.logoUrl ? (
                <img src={sub.logoUrl} alt="" className="h-10 w-10 rounded-lg object-cover" />
              ) : (
                <Building2 className="h-10 w-10 rounded-lg bg-surface-2 p-2" aria-hidden="true" />
              )}
              <span>
                <span className="block font-medium">{sub.name}</span>
                <span className="block text-xs text-muted">
                  {sub.agentCount} {sub.agentCount === 1 ? 'agent' : 'agents'} · created{' '}
                  {new Date(sub.createdAt).toLocaleDateString('en-US')}
                </span>
              </span>
            </button>
          ))}
        </div>
        {confirming ? (
          <div>
            <Label htmlFor="confirm-selection">Type 'confirm' to lock the other sub-accounts</Label>
            <Input
              id="confirm-selection"
              value={word}
              onChange={(event) => setWord(event.target.value)}
              autoComplete="off"
            />
          </div>
        ) : null}
        <div className="flex justify-end">
          <Button disabled={busy} onClick={() => void next()}>
            {confirming ? 'Lock Selection' : 'Continue'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
};
