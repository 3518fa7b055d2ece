import type { TOperatorAccount, TOperatorAccountList } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card, Spinner } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { formatCredits } from '../workspace/credits';

/** One account of the search. */
export const AccountRow = ({ account }: { account: TOperatorAccount }) => (
  <li className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm">
    <span className="min-w-0">
      <span className="block font-medium break-words">{account.name}</span>
      <span className="block break-all text-xs text-muted">
        {account.ownerEmail} · {account.id}
      </span>
    </span>
    <span className="flex flex-wrap gap-x-3 text-xs text-muted">
      <span className="text-foreground">{account.plan}</span>
      <span>{formatCredits(account.credits)} credits</span>
      <span>
        {account.subaccountCount} {account.subaccountCount === 1 ? 'sub-account' : 'sub-accounts'}
      </span>
    </span>
  </li>
);

/** The Accounts section: agencies by name or owner email, with plan, credits and sub-accounts. */
export const AccountsSection = () => {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('query') ?? '');
  const query = params.get('query') ?? '';
  // The search runs once typing pauses; the query is kept in the address.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() === query) return;
      const next = new URLSearchParams(params);
      if (text.trim()) next.set('query', text.trim());
      else next.delete('query');
      setParams(next, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, query, params, setParams]);
  const accounts = useQuery({
    queryKey: ['operator', 'accounts', query],
    queryFn: () =>
      api<TOperatorAccountList>(`/api/operator/accounts?limit=50&query=${encodeURIComponent(query)}`, {
        silent: true,
      }),
  });
  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold">Accounts</h2>
      <div>
        <Label htmlFor="account-search">Search by agency name or owner email</Label>
        <Input id="account-search" type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      {accounts.isLoading ? <Spinner label="Loading accounts" /> : null}
      {accounts.isError ? <p className="text-sm text-danger">The accounts could not be loaded.</p> : null}
      {accounts.data && accounts.data.accounts.length === 0 ? (
        <p className="text-sm text-muted">No account matches.</p>
      ) : null}
      {accounts.data && accounts.data.total > accounts.data.accounts.length ? (
        <p className="text-xs text-muted">
          Showing {accounts.data.accounts.length} of {accounts.data.total}: narrow the search.
        </p>
      ) : null}
      <ul className="divide-y divide-border">
        {accounts.data?.accounts.map((account) => (
          <AccountRow key={account.id} account={account} />
        ))}
      </ul>
    </Card>
  );
};
