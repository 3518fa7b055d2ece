import type { TChannelConnection, TInstagramSetup } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { type Choice, ChoiceCards } from '../../components/ui/choice-cards';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { AgentSelect } from '../widget/agent-select';

type Way = 'sandbox' | 'token' | 'oauth';

export const useInstagramSetup = () =>
  useQuery({
    queryKey: ['instagram-setup'],
    queryFn: () => api<TInstagramSetup>('/api/channels/instagram/setup', { silent: true }),
    staleTime: 60_000,
  });

/** Meta credentials: the page access token and the app secret (both stay on the server, encrypted). */
export const MetaCredentialFields = ({
  token,
  secret,
  onToken,
  onSecret,
  fieldError,
  disabled,
}: {
  token: string;
  secret: string;
  onToken: (value: string) => void;
  onSecret: (value: string) => void;
  fieldError: (field: string) => string | null;
  disabled?: boolean;
}) => (
  <div className="grid gap-4 sm:grid-cols-2">
    <div>
      <Label htmlFor="meta-token">Page access token</Label>
      <Input
        id="meta-token"
        type="password"
        value={token}
        onChange={(event) => onToken(event.target.value)}
        autoComplete="off"
        placeholder="EAAG..."
        disabled={disabled}
      />
      <FieldError>{fieldError('meta.pageAccessToken')}</FieldError>
    </div>
    <div>
      <Label htmlFor="meta-secret">App secret</Label>
      <Input
        id="meta-secret"
        type="password"
        value={secret}
        onChange={(event) => onSecret(event.target.value)}
        autoComplete="off"
        disabled={disabled}
      />
      <FieldError>{fieldError('meta.appSecret')}</FieldError>
    </div>
  </div>
);

/** Creates the sub-account's Instagram agent: an agent, and the sandbox, a page token, or Meta's OAuth. */
export const InstagramConnectForm = ({
  subaccountId,
  sandboxAvailable,
}: {
  subaccountId: string;
  /** Off in production unless MESSAGING_SANDBOX=true: then Meta is the only way. */
  sandboxAvailable: boolean;
}) => {
  const client = useQueryClient();
  const setup = useInstagramSetup();
  const [buildId, setBuildId] = useState('');
  const [way, setWay] = useState<Way>(sandboxAvailable ? 'sandbox' : 'token');
  const [token, setToken] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const onError = (failure: unknown, retry: () => void) => {
    if (failure instanceof ApiError && (failure.status === 422 || failure.status === 401) && failure.field)
      setError({ field: failure.field.replace(/^body\./, ''), message: failure.message });
    else showErrorDialog(failure, retry);
  };
  const create = useMutation({
    mutationFn: () =>
      api<TChannelConnection>('/api/channels', {
        silent: true,
        body: {
          subaccountId,
          type: 'instagram',
          buildId,
          ...(way === 'token' ? { meta: { pageAccessToken: token.trim(), appSecret: secret.trim() } } : {}),
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['channels', subaccountId, 'instagram'] }),
    onError: (failure) => onError(failure, () => create.mutate()),
  });
  const oauth = useMutation({
    mutationFn: () =>
      api<{ url: string }>('/api/channels/instagram/oauth/start', { silent: true, body: { subaccountId, buildId } }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (failure) => onError(failure, () => oauth.mutate()),
  });
  const fieldError = (field: string) => (error?.field === field ? error.message : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!buildId) return setError({ field: 'buildId', message: 'Pick an agent' });
    setError(null);
    if (way === 'oauth') oauth.mutate();
    else create.mutate();
  };
  const ways: Choice<Way>[] = [
    ...(sandboxAvailable
      ? [
          {
            value: 'sandbox' as const,
            label: 'Sandbox',
            description: 'No Meta account needed. Chat with the agent inside this app.',
          },
        ]
      : []),
    {
      value: 'token',
      label: 'Page access token',
      description: 'The Facebook page linked to your Instagram professional account, and your app secret.',
    },
  ];
  if (setup.data?.oauthAvailable)
    ways.push({
      value: 'oauth',
      label: 'Connect with Meta',
      description: 'Sign in with Facebook and pick the page of your Instagram account.',
    });
  const busy = create.isPending || oauth.isPending;

  return (
    <Card className="mx-auto max-w-2xl">
      <h2 className="text-lg font-semibold">Connect the Instagram Agent</h2>
      <p className="mt-1 text-sm text-muted">
        The agent answers direct messages, story replies and story mentions of an Instagram professional account, within
        Meta’s 24-hour messaging window.{sandboxAvailable ? ' Without Meta credentials, try it in the sandbox.' : ''}
      </p>
      <form onSubmit={submit} className="mt-5 space-y-5" noValidate>
        <AgentSelect
          id="instagram-agent"
          subaccountId={subaccountId}
          value={buildId}
          onChange={setBuildId}
          error={fieldError('buildId')}
        />
        <ChoiceCards legend="Connect through" name="instagram-way" choices={ways} value={way} onChange={setWay} />
        {way === 'token' ? (
          <MetaCredentialFields
            token={token}
            secret={secret}
            onToken={setToken}
            onSecret={setSecret}
            fieldError={fieldError}
          />
        ) : null}
        <FieldError>{fieldError('meta')}</FieldError>
        <Button type="submit" disabled={busy}>
          {busy
            ? way === 'token'
              ? 'Checking credentials...'
              : way === 'oauth'
                ? 'Opening Meta...'
                : 'Connecting...'
            : way === 'oauth'
              ? 'Continue with Meta'
              : 'Connect'}
        </Button>
      </form>
    </Card>
  );
};
