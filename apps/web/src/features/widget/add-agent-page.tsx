import { setupPathOf, type TConnection } from '@switchboard/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useOutletContext, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, PageHeading } from '../../components/ui/card';
import { ChoiceCards } from '../../components/ui/choice-cards';
import { FieldError, Input, Label } from '../../components/ui/input';
import { type ApiError, api } from '../../lib/api';
import type { ConnectContext } from '../connection/connection-layout';
import { AgentSelect } from './agent-select';

const CHANNELS: { value: TConnection['type']; label: string; description: string }[] = [
  {
    value: 'website-widget',
    label: 'Website Widget',
    description: 'A chat launcher floating in a corner of every page.',
  },
  { value: 'website-block', label: 'Website Block', description: 'The chat shown inline inside a page element.' },
];

/** /{connectId}/add-agent: put an agent on the website widget or website block channel. */
export const AddAgentPage = () => {
  const context = useOutletContext<ConnectContext>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [buildId, setBuildId] = useState('');
  const [channel, setChannel] = useState<TConnection['type']>(
    params.get('channel') === 'website-block' ? 'website-block' : 'website-widget',
  );
  const [name, setName] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api<TConnection>('/api/connections', {
        body: {
          subaccountId: context.subaccountId,
          buildId,
          type: channel,
          ...(name.trim() ? { connectionName: name.trim() } : {}),
        },
        silent: true,
      }),
    onSuccess: (connection) => {
      navigate(`/${connection.connectionId}/${connection.type}`);
    },
    onError: (failure: ApiError) => setError({ field: failure.field, message: failure.message }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!buildId) {
      setError({ field: 'buildId', message: 'Pick an agent' });
      return;
    }
    setError(null);
    create.mutate();
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeading title="Add agent" description="Connect an agent to a channel of this account." />
      <Card>
        <form onSubmit={submit} className="space-y-5" noValidate>
          <AgentSelect
            id="agent"
            subaccountId={context.subaccountId}
            value={buildId}
            onChange={setBuildId}
            error={error?.field === 'buildId' ? error.message : null}
          />
          <ChoiceCards legend="Channel" name="channel" choices={CHANNELS} value={channel} onChange={setChannel} />
          <div>
            <Label htmlFor="connection-name">Name (optional)</Label>
            <Input id="connection-name" value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
          </div>
          {error && error.field !== 'buildId' ? <FieldError>{error.message}</FieldError> : null}
          <Button type="submit" disabled={create.isPending || context.role === 'viewer'}>
            {create.isPending ? 'Adding...' : 'Add agent'}
          </Button>
          {context.role === 'viewer' ? <p className="text-xs text-muted">Viewers cannot add agents.</p> : null}
        </form>
      </Card>
      <Card className="mt-4">
        <h2 className="text-sm font-semibold">Messaging channels</h2>
        <p className="mt-1 text-sm text-muted">SMS, WhatsApp and Instagram agents are connected on their own pages.</p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {MESSAGING.map(([type, label]) => (
            <li key={type}>
              <Link
                to={setupPathOf(type, context.subaccountId, false)}
                className="inline-flex h-8 items-center rounded-lg border border-border px-3 text-sm font-medium hover:bg-surface-2"
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
};

const MESSAGING = [
  ['sms', 'SMS Agent'],
  ['whatsapp', 'WhatsApp Agent'],
  ['instagram', 'Instagram Agent'],
] as const;
