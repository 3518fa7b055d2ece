import {
  type AppError,
  dialogActions,
  dialogTitle,
  EVALUATION_MESSAGES,
  formatSupportReference,
} from '@switchboard/core';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ApiError, getCurrentSubaccountId, SESSION_EXPIRED_EVENT } from '../../lib/api';
import { toast } from '../../lib/toast';

type Listener = () => void;
let current: (AppError & { onRetry?: () => void }) | null = null;
const listeners = new Set<Listener>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Opens the shared API error dialog for an error (ApiError or anything thrown). */
export const showErrorDialog = (error: unknown, onRetry?: () => void) => {
  const appError: AppError =
    error instanceof ApiError
      ? error.appError
      : {
          type: 'unknown',
          message: error instanceof Error ? error.message : 'An error occurred',
          advice: '',
          actions: [],
        };
  current = { ...appError, onRetry };
  emit();
};

const close = () => {
  current = null;
  emit();
};

const useCurrentError = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );

const ACTION_TARGETS: Record<string, string> = {
  'Log In': '/?signin=1',
  'View Plans': '/?scrollToPricing=true',
  'Upgrade Plan': '/usage',
  'View Billing': '/usage',
  'Update Payment Method': '/settings',
  Settings: '/build',
  'View Builds': '/agents',
};

/** API key actions go to the provider settings of the sub-account the user works in. */
const KEY_ACTIONS = new Set(['Add API Key', 'Update API Key', 'Configure API Key']);
const targetOf = (action: string) => {
  if (KEY_ACTIONS.has(action)) {
    const subaccountId = getCurrentSubaccountId();
    return subaccountId ? `/${subaccountId}/ai-settings` : '/settings';
  }
  return ACTION_TARGETS[action];
};

export const ErrorDialog = () => {
  const error = useCurrentError();
  const navigate = useNavigate();
  const [copied, setCopied] = useState<'code' | 'message' | null>(null);
  // Every SESSION_EXPIRED answer, whichever screen asked, opens this dialog.
  useEffect(() => {
    const onExpired = (event: Event) => showErrorDialog((event as CustomEvent<ApiError>).detail);
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, []);
  if (!error) return null;
  const reference = error.supportId ? formatSupportReference(error.supportId) : null;

  const copy = async (what: 'code' | 'message', text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
      if (what === 'code') toast.success(EVALUATION_MESSAGES.codeCopied);
      setTimeout(() => setCopied(null), 2000);
    } catch {
      toast.error(`Copy failed. Here's the text: ${text}`, 10_000);
    }
  };

  const act = (action: string) => {
    if (action === 'Retry' && error.onRetry) {
      close();
      error.onRetry();
      return;
    }
    if (action === 'Contact Support') {
      close();
      navigate('/support');
      return;
    }
    const target = targetOf(action);
    close();
    if (target) navigate(target);
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : close())} title={dialogTitle(error)}>
      <div className="space-y-3 text-sm">
        <p>{error.message}</p>
        {error.advice ? <p className="text-muted">{error.advice}</p> : null}
        {error.tip ? <p className="rounded-lg bg-surface-2 p-3">{error.tip}</p> : null}
        {error.context ? <p className="text-muted">{error.context}</p> : null}
        {reference ? (
          <div className="flex items-center justify-between gap-2 rounded-lg border border-border p-3">
            <div>
              <div className="text-xs text-muted">Reference Code</div>
              <code className="font-mono text-xs break-all">{reference}</code>
            </div>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Copy reference code"
              onClick={() => copy('code', reference)}
            >
              {copied === 'code' ? <Check size={16} /> : <Copy size={16} />}
            </Button>
          </div>
        ) : null}
        {error.code ? (
          <details className="text-xs text-muted">
            <summary className="cursor-pointer">Technical details</summary>
            <code className="mt-1 block font-mono">{error.code}</code>
          </details>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() =>
              copy(
                'message',
                `I'm experiencing an issue: ${error.message}${reference ? `\nReference Code: ${reference}` : ''}`,
              )
            }
          >
            {copied === 'message' ? 'Copied' : 'Copy support message'}
          </Button>
          {dialogActions(error).map((action) => (
            <Button key={action} size="sm" variant="secondary" onClick={() => act(action)}>
              {action}
            </Button>
          ))}
          <Button size="sm" onClick={close}>
            Close
          </Button>
        </div>
      </div>
    </Dialog>
  );
};
