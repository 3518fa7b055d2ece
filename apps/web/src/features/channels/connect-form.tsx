import type { TChannelConnection, TMessagingChannel } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { type Choice, ChoiceCards } from '../../components/ui/choice-cards';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { AgentSelect } from '../widget/agent-select';
import { CHANNEL_NAMES } from './use-channel';

/** Creates the sub-account's SMS or WhatsApp agent: an agent, and the sandbox or Twilio. */
const TRANSPORTS: readonly Choice<'sandbox' | 'twilio'>[] = [
  { value: 'sandbox', label: 'Sandbox phone', description: 'No account needed. Nothing leaves this app.' },
  { value: 'twilio', label: 'Twilio', description: 'Your Twilio number or messaging service.' },
];

export const ConnectForm = ({
  subaccountId,
  type,
  sandboxAvailable,
}: {
  subaccountId: string;
  type: TMessagingChannel;
  /** Off in production unless MESSAGING_SANDBOX=true: then Twilio is the only way. */
  sandboxAvailable: boolean;
}) => {
  const client = useQueryClient();
  const [buildId, setBuildId] = useState('');
  const [transport, setTransport] = useState<'sandbox' | 'twilio'>(sandboxAvailable ? 'sandbox' : 'twilio');
  const [accountSid, setAccountSid] = useState('');
  const [authToken, setAuthToken] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [messagingServiceSid, setMessagingServiceSid] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api<TChannelConnection>('/api/channels', {
        silent: true,
        body: {
          subaccountId,
          type,
          buildId,
          ...(transport === 'twilio'
            ? {
                twilio: { accountSid: accountSid.trim(), authToken: authToken.trim() },
                sender: {
                  phoneNumber: phoneNumber.trim() || null,
                  messagingServiceSid: messagingServiceSid.trim() || null,
                },
              }
            : {}),
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['channels', subaccountId, type] }),
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 422 && failure.field)
        setError({ field: failure.field.replace(/^body\./, ''), message: failure.message });
      else showErrorDialog(failure, () => create.mutate());
    },
  });
  const fieldError = (field: string) => (error?.field === field ? error.message : null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!buildId) return setError({ field: 'buildId', message: 'Pick an agent' });
    setError(null);
    create.mutate();
  };

  return (
    <Card className="mx-auto max-w-2xl">
      <h2 className="text-lg font-semibold">Connect the {CHANNEL_NAMES[type]}</h2>
      <p className="mt-1 text-sm text-muted">
        {sandboxAvailable
          ? 'Pick the agent that answers. Without a Twilio account, use the sandbox: a phone inside this app where you can text the agent and receive campaigns.'
          : 'Pick the agent that answers and enter your Twilio account: this server sends real messages only.'}
      </p>
      <form onSubmit={submit} className="mt-5 space-y-5" noValidate>
        <AgentSelect
          id="channel-agent"
          subaccountId={subaccountId}
          value={buildId}
          onChange={setBuildId}
          error={fieldError('buildId')}
        />
        {sandboxAvailable ? (
          <ChoiceCards
            legend="Messages travel through"
            name="transport"
            choices={TRANSPORTS}
            value={transport}
            onChange={setTransport}
          />
        ) : null}
        <FieldError>{fieldError('twilio')}</FieldError>
        {transport === 'twilio' ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <Label htmlFor="twilio-sid">Account SID</Label>
              <Input
                id="twilio-sid"
                value={accountSid}
                onChange={(e) => setAccountSid(e.target.value)}
                placeholder="AC..."
                autoComplete="off"
              />
              <FieldError>{fieldError('twilio.accountSid')}</FieldError>
            </div>
            <div>
              <Label htmlFor="twilio-token">Auth token</Label>
              <Input
                id="twilio-token"
                type="password"
                value={authToken}
                onChange={(e) => setAuthToken(e.target.value)}
                autoComplete="off"
              />
              <FieldError>{fieldError('twilio.authToken')}</FieldError>
            </div>
            <div>
              <Label htmlFor="twilio-phone">{type === 'whatsapp' ? 'WhatsApp sender number' : 'Sending number'}</Label>
              <Input
                id="twilio-phone"
                value={phoneNumber}
                onChange={(e) => setPhoneNumber(e.target.value)}
                placeholder="+15555555555"
              />
              <FieldError>{fieldError('sender.phoneNumber')}</FieldError>
            </div>
            <div>
              <Label htmlFor="twilio-service">or Messaging service SID</Label>
              <Input
                id="twilio-service"
                value={messagingServiceSid}
                onChange={(e) => setMessagingServiceSid(e.target.value)}
                placeholder="MG..."
              />
              <FieldError>{fieldError('sender.messagingServiceSid')}</FieldError>
            </div>
          </div>
        ) : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? (transport === 'twilio' ? 'Checking credentials...' : 'Connecting...') : 'Connect'}
        </Button>
      </form>
    </Card>
  );
};
