import type { TIntegrationApp } from '@switchboard/core';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FieldError, Input, Label } from '../../components/ui/input';

/** Connects an API-key app: the key is checked by the app (or the sandbox) before it counts as connected. */
export const ApiKeyDialog = ({
  app,
  onOpenChange,
  onSubmit,
  busy,
  error,
}: {
  app: TIntegrationApp | null;
  onOpenChange: (open: boolean) => void;
  onSubmit: (apiKey: string) => void;
  busy: boolean;
  error: string | null;
}) => {
  const [apiKey, setApiKey] = useState('');
  const inputId = useId();
  const errorId = useId();
  return (
    <Dialog
      open={Boolean(app)}
      onOpenChange={(open) => {
        if (!open) setApiKey('');
        onOpenChange(open);
      }}
      title={app ? `Connect ${app.name}` : 'Connect'}
      description={
        app?.sandbox
          ? 'Sandbox: any key of 8 or more characters connects; nothing reaches a real CRM.'
          : 'Paste an API key of your account with this app. It is sent to Composio, which keeps it.'
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(apiKey.trim());
        }}
      >
        <Label htmlFor={inputId}>API key</Label>
        <Input
          id={inputId}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
        />
        <FieldError id={errorId}>{error}</FieldError>
        <div className="mt-4 flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || !apiKey.trim()}>
            {busy ? 'Connecting...' : 'Connect'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
};
