import type { TAccount, TAccountsResponse, TSessionResponse, TSubaccount } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { AUTH_ERROR_EVENT, api, setCurrentSubaccountId } from '../../lib/api';
import { storage } from '../../lib/storage';

const CURRENT_SUBACCOUNT_KEY = 'sb:current-subaccount';

export interface SessionValue {
  loading: boolean;
  user: TSessionResponse['user'];
  providers: TSessionResponse['providers'];
  /** One of the platform's operators (OPERATOR_EMAILS): the account menu links /operator. */
  isOperator: boolean;
  accounts: TAccount[];
  subaccounts: TSubaccount[];
  /** The sub-account workspace-level pages act in. */
  currentSubaccount: TSubaccount | null;
  selectSubaccount: (id: string) => void;
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export const sessionQueryKey = ['session'] as const;
export const accountsQueryKey = ['accounts'] as const;

export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const queryClient = useQueryClient();
  const sessionQuery = useQuery({
    queryKey: sessionQueryKey,
    queryFn: () => api<TSessionResponse>('/api/auth/session', { silent: true }),
    staleTime: 60_000,
  });
  const user = sessionQuery.data?.user ?? null;
  const accountsQuery = useQuery({
    queryKey: accountsQueryKey,
    queryFn: () => api<TAccountsResponse>('/api/accounts', { silent: true }),
    enabled: Boolean(user),
    staleTime: 30_000,
  });
  const [selectedId, setSelectedId] = useState<string | null>(() =>
    storage.get<string | null>(CURRENT_SUBACCOUNT_KEY, null),
  );

  const accounts = accountsQuery.data?.accounts ?? [];
  const subaccounts = useMemo(() => accounts.flatMap((account) => account.subaccounts), [accounts]);
  // The workspace never opens on a sub-account the plan has locked while an unlocked one exists.
  const currentSubaccount =
    subaccounts.find((item) => item.id === selectedId && !item.locked) ??
    subaccounts.find((item) => !item.locked) ??
    subaccounts[0] ??
    null;
  setCurrentSubaccountId(currentSubaccount?.id ?? null);

  const selectSubaccount = useCallback((id: string) => {
    setSelectedId(id);
    storage.set(CURRENT_SUBACCOUNT_KEY, id);
  }, []);

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    await queryClient.invalidateQueries({ queryKey: accountsQueryKey });
  }, [queryClient]);

  const signOut = useCallback(async () => {
    storage.clear();
    await api('/api/auth/sign-out', { method: 'POST', body: {}, silent: true }).catch(() => undefined);
    setSelectedId(null);
    queryClient.clear();
    window.location.assign('/');
  }, [queryClient]);

  useEffect(() => {
    const onAuthError = () => {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    };
    window.addEventListener(AUTH_ERROR_EVENT, onAuthError);
    return () => window.removeEventListener(AUTH_ERROR_EVENT, onAuthError);
  }, [queryClient]);

  const value: SessionValue = {
    loading: sessionQuery.isLoading || (Boolean(user) && accountsQuery.isLoading),
    user,
    providers: sessionQuery.data?.providers ?? { google: false, email: true, directLogin: false },
    isOperator: Boolean(user && sessionQuery.data?.isOperator),
    accounts,
    subaccounts,
    currentSubaccount,
    selectSubaccount,
    refresh,
    signOut,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
};

export const useSession = (): SessionValue => {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
};
