import type { TChannelConnection } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { useBuilds } from '../widget/use-connection';
import { MetaCredentialFields } from './instagram-connect-form';

const CopyField = ({ id, label, value }: { id: string; label: string; value: string }) => (
  <div>
    <Label htmlFor={id}>{label}</Label>
    <div className="flex gap-2">
      <Input id={id} readOnly value={value} />
      <Button
        variant="secondary"
        aria-label={`Copy ${label.toLowerCase()}`}
        onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.success('Copied'))}
      >
        Copy
      </Button>
    </div>
  </div>
);

/** The Instagram agent's settings: which agent answers, Meta's webhook values, and the credentials. */
export const InstagramSettings = ({
  connection,
  canEdit,
  sandboxAvailable,
}: {
  connection: TChannelConnection;
  canEdit: boolean;
  /** Whether this server runs the sandbox: only then can the credentials be removed. */
  sandboxAvailable: boolean;
}) => {
  const client = useQueryClient();
  const builds = useBuilds(connection.subaccountId);
  const [buildId, setBuildId] = useState(connection.buildId ?? '');
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (body: object) =>
      api<TChannelConnection>(`/api/channels/${connection.connectionId}`, { method: 'PATCH', body, silent: true }),
    onSuccess: () => {
      toast.success('Connection saved');
      setToken('');
      setSecret('');
      void client.invalidateQueries({ queryKey: ['channels', connection.subaccountId, 'instagram'] });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && (failure.status === 422 || failure.status === 401))
        setError({ field: failure.field?.replace(/^body\./, ''), message: failure.message });
      else showErrorDialog(failure);
    },
  });
  const fieldError = (field: string) => (error?.field === field ? error.message : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    save.mutate({
      ...(buildId && buildId !== connection.buildId ? { buildId } : {}),
      ...(token || secret ? { meta: { pageAccessToken: token.trim(), appSecret: secret.trim() } } : {}),
      ...(!token && !secret && (!buildId || buildId === connection.buildId)
        ? { connectionName: connection.connectionName }
        : {}),
    });
  };
  const instagram = connection.instagram;
  const meta = connection.transport === 'meta';

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <h2 className="font-semibold">Meta webhook</h2>
        <p className="mt-1 text-sm text-muted">
          In your Meta app: Webhooks → Instagram → Callback URL and Verify token, then subscribe to messages.
        </p>
        <div className="mt-3 space-y-3">
          <CopyField id="instagram-callback" label="Callback URL" value={connection.webhookUrl} />
          <CopyField id="instagram-verify-token" label="Verify token" value={instagram?.verifyToken ?? ''} />
          <p className="text-sm">
            {instagram?.webhookVerifiedAt
              ? `Meta verified the webhook on ${new Date(instagram.webhookVerifiedAt).toLocaleString()}.`
              : 'Meta has not verified the webhook yet.'}
          </p>
        </div>
      </Card>
      <Card>
        <h2 className="font-semibold">Connection</h2>
        <p className="mt-1 text-sm text-muted">
          {meta
            ? `Instagram account @${instagram?.username ?? instagram?.accountId} (page ${instagram?.pageId}), token ending ${connection.secretLast4}.`
            : 'This connection uses the sandbox. Enter a page access token and the app secret to answer real direct messages.'}
        </p>
        <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
          <div>
            <Label htmlFor="instagram-settings-agent">Agent</Label>
            <Select
              id="instagram-settings-agent"
              value={buildId}
              onChange={(event) => setBuildId(event.target.value)}
              disabled={!canEdit}
            >
              {(builds.data?.builds ?? []).map((build) => (
                <option key={build.buildId} value={build.buildId}>
                  {build.aiName}
                </option>
              ))}
            </Select>
            <FieldError>{fieldError('buildId')}</FieldError>
          </div>
          <MetaCredentialFields
            token={token}
            secret={secret}
            onToken={setToken}
            onSecret={setSecret}
            fieldError={fieldError}
            disabled={!canEdit}
          />
          <FieldError>{error && !error.field ? error.message : null}</FieldError>
          {canEdit ? (
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save'}
              </Button>
              {meta && sandboxAvailable ? (
                <Button variant="secondary" disabled={save.isPending} onClick={() => save.mutate({ meta: null })}>
                  Switch to the sandbox
                </Button>
              ) : null}
            </div>
          ) : null}
        </form>
      </Card>
    </div>
  );
};
