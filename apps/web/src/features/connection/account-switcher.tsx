import { upgradePathFor, ZSubaccountName } from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { Building2, Check, ChevronsUpDown, Lock, Plus } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { accountsQueryKey, useSession } from '../session/session';

interface Props {
  currentId: string | null;
  /** Company name and logo shown on the trigger (from the SMS settings call). */
  title?: string;
  logoUrl?: string | null;
  onSelect: (subaccountId: string) => void;
  compact?: boolean;
}

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[highlighted]:bg-surface-2';

/** Lists the caller's accounts and sub-accounts; Add New Account creates a sub-account. */
export const AccountSwitcher = ({ currentId, title, logoUrl, onSelect, compact }: Props) => {
  const { accounts, subaccounts } = useSession();
  const [creating, setCreating] = useState(false);
  const [lockedChoice, setLockedChoice] = useState<{ id: string; name: string; accountId: string } | null>(null);
  // Adding a client is the agency's manager's (its owner or an admin of all its sub-accounts).
  const canAdd = accounts.some((account) => account.canManageBilling);
  const current = subaccounts.find((item) => item.id === currentId);
  const label = title ?? current?.name ?? 'Select account';

  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="flex w-full items-center gap-2 rounded-lg border border-border bg-surface-2 px-2 py-2 text-left text-sm"
          aria-label={`Account: ${label}. Switch account`}
        >
          {logoUrl ? (
            <img src={logoUrl} alt="" className="h-7 w-7 rounded object-cover" />
          ) : (
            <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded bg-primary text-primary-foreground">
              <Building2 size={16} aria-hidden="true" />
            </span>
          )}
          <span className={cn('min-w-0 flex-1 truncate font-medium', compact && 'hidden')}>{label}</span>
          <ChevronsUpDown size={14} className={cn('text-muted', compact && 'hidden')} aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={6}
            className="z-50 max-h-[320px] w-64 overflow-y-auto rounded-lg border border-border bg-surface p-1 text-foreground shadow-xl"
          >
            {accounts.map((account) => (
              <DropdownMenu.Group key={account.id}>
                <DropdownMenu.Label className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">
                  {account.name}
                </DropdownMenu.Label>
                {account.subaccounts.map((subaccount) => (
                  <DropdownMenu.Item
                    key={subaccount.id}
                    className={itemClass}
                    onSelect={() => (subaccount.locked ? setLockedChoice(subaccount) : onSelect(subaccount.id))}
                  >
                    <span className="min-w-0 flex-1 truncate">{subaccount.name}</span>
                    {subaccount.locked ? (
                      <span className="flex items-center gap-1 text-xs text-muted">
                        <Lock size={12} aria-hidden="true" /> Locked
                      </span>
                    ) : (
                      <span className="text-xs text-muted">{subaccount.role}</span>
                    )}
                    {subaccount.id === currentId ? <Check size={14} aria-label="Current" /> : null}
                  </DropdownMenu.Item>
                ))}
              </DropdownMenu.Group>
            ))}
            {canAdd ? (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-border" />
                <DropdownMenu.Item className={itemClass} onSelect={() => setCreating(true)}>
                  <Plus size={14} aria-hidden="true" /> Add New Account
                </DropdownMenu.Item>
              </>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {creating ? <AddSubaccountDialog onClose={() => setCreating(false)} onCreated={onSelect} /> : null}
      {lockedChoice ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setLockedChoice(null))}
          title={`${lockedChoice.name} is locked`}
        >
          <LockedExplanation accountId={lockedChoice.accountId} />
        </Dialog>
      ) : null}
    </>
  );
};

/**
 * Why a sub-account is locked and how to unlock it (the switcher and the locked connection page);
 * only the agency's manager can unlock it, so anyone else is told whom to ask.
 */
export const LockedExplanation = ({ accountId }: { accountId: string }) => {
  const { accounts } = useSession();
  const manages = accounts.find((account) => account.id === accountId)?.canManageBilling ?? false;
  if (!manages) {
    return (
      <div className="space-y-3 text-sm">
        <p>
          The agency's plan allows fewer active sub-accounts than it has, so this one is locked. Nothing in it was
          deleted, but it cannot be changed and its agents do not answer visitors until it is unlocked.
        </p>
        <p>The agency's owner or an admin of all its sub-accounts can unlock it.</p>
      </div>
    );
  }
  return <ManagerUnlock />;
};

const ManagerUnlock = () => (
  <div className="space-y-3 text-sm">
    <p>
      Your plan allows fewer active sub-accounts than you have, so this one is locked. Nothing in it was deleted, but it
      cannot be changed and its agents do not answer visitors until it is unlocked.
    </p>
    <p>Upgrade your plan to unlock it, or choose it as your active sub-account on the Usage page.</p>
    <div className="flex flex-wrap gap-2">
      <Link
        to={upgradePathFor('subaccounts')}
        className="rounded-lg bg-primary px-3 py-2 font-medium text-primary-foreground"
      >
        Upgrade to Unlock
      </Link>
      <Link to="/usage" className="rounded-lg border border-border px-3 py-2">
        Usage and plan
      </Link>
    </div>
  </div>
);

const AddSubaccountDialog = ({ onClose, onCreated }: { onClose: () => void; onCreated: (id: string) => void }) => {
  const { accounts } = useSession();
  const queryClient = useQueryClient();
  const ownAccounts = accounts.filter((account) => account.canManageBilling);
  const [accountId, setAccountId] = useState(ownAccounts[0]?.id ?? '');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZSubaccountName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Name is required');
      return;
    }
    setBusy(true);
    try {
      const created = await api<{ id: string; name: string }>('/api/subaccounts', {
        body: { accountId, name: parsed.data },
        silent: true,
      });
      await queryClient.invalidateQueries({ queryKey: accountsQueryKey });
      toast.success(`${created.name} created`);
      onCreated(created.id);
      onClose();
    } catch (thrown) {
      setError(thrown instanceof ApiError ? thrown.message : 'Failed to create the account');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Add New Account">
      {ownAccounts.length === 0 ? (
        <p className="text-sm text-muted">Only an agency admin can add accounts.</p>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          {ownAccounts.length > 1 ? (
            <div>
              <Label htmlFor="new-subaccount-agency">Agency</Label>
              <Select id="new-subaccount-agency" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
                {ownAccounts.map((account) => (
                  <option key={account.id} value={account.id}>
                    {account.name}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
          <div>
            <Label htmlFor="new-subaccount-name">Client name</Label>
            <Input
              id="new-subaccount-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="Acme Plumbing"
              aria-describedby={error ? 'new-subaccount-error' : undefined}
            />
            <FieldError id="new-subaccount-error">{error}</FieldError>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Creating...' : 'Create'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
};
