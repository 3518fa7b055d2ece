import { DEFAULT_SMS_PRIMARY_COLOR, type TSmsSettings, type TSubaccountTheme } from '@switchboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useState } from 'react';
import { api } from '../../lib/api';

export interface ThemeValue {
  isDarkMode: boolean;
  primaryColor: string;
  isLoading: boolean;
  canToggleTheme: boolean;
  toggleTheme: () => void;
  setPrimaryColor: (color: string) => void;
}

const ThemeContext = createContext<ThemeValue | null>(null);

/** Black or white text, whichever reads better on the colour. */
export const readableOn = (hex: string): string => {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? [...value].map((c) => c + c).join('') : value;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) / 255);
  const lin = (c = 0) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > 0.179 ? '#0b1512' : '#ffffff';
};

const applyToDocument = (dark: boolean, color: string) => {
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.setProperty('--primary', color);
  root.style.setProperty('--primary-foreground', readableOn(color));
};

type Scope = { kind: 'subaccount'; id: string } | { kind: 'connection'; id: string } | { kind: 'none' };

interface Loaded {
  dark: boolean;
  color: string;
}

const loadTheme = async (scope: Scope): Promise<Loaded> => {
  if (scope.kind === 'subaccount') {
    const theme = await api<TSubaccountTheme>(`/api/subaccounts/${scope.id}/theme`, { silent: true });
    return { dark: theme.isDarkMode, color: theme.primaryColor };
  }
  if (scope.kind === 'connection') {
    const settings = await api<TSmsSettings>(`/api/sms/${scope.id}/settings`, { silent: true });
    return { dark: settings.theme === 'dark', color: settings.primaryColor };
  }
  return { dark: true, color: DEFAULT_SMS_PRIMARY_COLOR };
};

const saveTheme = (scope: Scope, patch: { dark?: boolean; color?: string }) => {
  if (scope.kind === 'subaccount') {
    return api(`/api/subaccounts/${scope.id}/theme`, {
      method: 'PATCH',
      body: patch.dark !== undefined ? { isDarkMode: patch.dark } : { primaryColor: patch.color },
      silent: true,
    });
  }
  if (scope.kind === 'connection') {
    return api(`/api/sms/${scope.id}/settings`, {
      method: 'PATCH',
      body: patch.dark !== undefined ? { theme: patch.dark ? 'dark' : 'light' } : { primaryColor: patch.color },
      silent: true,
    });
  }
  return Promise.resolve();
};

/**
 * The theme of a part of the app: a sub-account's dark/light mode and primary colour, applied
 * optimistically and reverted (with a logged error) when the save fails; dark without a sub-account.
 */
export const ThemeScope = ({
  subaccountId,
  connectId,
  children,
}: {
  subaccountId?: string;
  connectId?: string;
  children: ReactNode;
}) => {
  const scope: Scope = subaccountId
    ? { kind: 'subaccount', id: subaccountId }
    : connectId
      ? { kind: 'connection', id: connectId }
      : { kind: 'none' };
  const queryKey = ['theme', scope.kind, scope.kind === 'none' ? '' : scope.id];
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey,
    queryFn: () => loadTheme(scope),
    staleTime: 60_000,
    retry: false,
  });
  if (query.isError) console.error('Failed to load theme', query.error);
  const [override, setOverride] = useState<Partial<Loaded>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh server value replaces local overrides
  useEffect(() => setOverride({}), [query.data]);

  const dark = scope.kind === 'none' ? true : (override.dark ?? query.data?.dark ?? true);
  const color = override.color ?? query.data?.color ?? DEFAULT_SMS_PRIMARY_COLOR;

  useLayoutEffect(() => applyToDocument(dark, color), [dark, color]);

  const update = (patch: { dark?: boolean; color?: string }) => {
    if (scope.kind === 'none') return;
    const previous = { ...override };
    // A load still in flight would bring back the value from before this change.
    void queryClient.cancelQueries({ queryKey });
    setOverride((current) => ({ ...current, ...patch }));
    saveTheme(scope, patch)
      .then(() => {
        queryClient.setQueryData<Loaded>(queryKey, (old) => ({
          dark: patch.dark ?? old?.dark ?? true,
          color: patch.color ?? old?.color ?? DEFAULT_SMS_PRIMARY_COLOR,
        }));
      })
      .catch((error: unknown) => {
        console.error('Failed to save theme; the change was reverted', error);
        setOverride(previous);
      });
  };

  const value: ThemeValue = {
    isDarkMode: dark,
    primaryColor: color,
    isLoading: query.isLoading,
    canToggleTheme: scope.kind !== 'none',
    toggleTheme: () => update({ dark: !dark }),
    setPrimaryColor: (next) => update({ color: next }),
  };
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
};

export const useTheme = (): ThemeValue => {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside ThemeScope');
  return value;
};
