import type { TApiKeyView, TCreatedApiKey } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { useAgents } from './api';

const copy = async (text: string) => {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied to clipboard');
  } catch {
    toast.error(`Copy failed. Here's the key: ${text}`, 10_000);
  }
};

/** /apitester (API Key): platform API keys of the sub-account and a request tester for /v1. */
export const ApiKeysPage = () => {
  const { currentSubaccount } = useSession();
  const subaccountId = currentSubaccount?.id ?? null;
  const canEdit = currentSubaccount?.role !== 'viewer';
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ['api-keys', subaccountId],
    queryFn: () => api<{ keys: TApiKeyView[] }>('/api/api-keys'),
    enabled: Boolean(subaccountId) && canEdit,
  });
  const agents = useAgents(subaccountId);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<TCreatedApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys', subaccountId] });
  const create = useMutation({
    mutationFn: () => api<TCreatedApiKey>('/api/api-keys', { method: 'POST', body: { name }, silent: true }),
    onSuccess: (key) => {
      setCreated(key);
      setTesterKey(key.key);
      setName('');
      void refresh();
    },
    onError: (error) => setNameError(error instanceof ApiError ? error.message : 'The key could not be created'),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/api/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast.success('Key revoked');
      void refresh();
    },
  });

  const [testerKey, setTesterKey] = useState('');
  const [model, setModel] = useState('');
  const [message, setMessage] = useState('Hello! What can you do?');
  const [result, setResult] = useState<string>('');
  const [sending, setSending] = useState(false);
  const agentId = model || agents.data?.agents[0]?.id || '';
  const origin = window.location.origin;
  const curl = `curl ${origin}/v1/chat/completions \\\n  -H "Authorization: Bearer ${testerKey || 'sk_sb_...'}" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify({ model: agentId || 'agt_...', messages: [{ role: 'user', content: message }] })}'`;

  const sendTest = async () => {
    setSending(true);
    setResult('');
    try {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${testerKey.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: agentId, messages: [{ role: 'user', content: message }] }),
      });
      const text = await response.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON: show as it came.
      }
      setResult(`HTTP ${response.status}\n${pretty}`);
    } catch (error) {
      setResult(error instanceof Error ? error.message : 'Request failed');
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-semibold">API Key</h1>
        <p className="text-sm text-muted">
          Call your agents from any OpenAI client: base URL <code className="font-mono">{origin}/v1</code>, model = the
          agent ID, and a key of this sub-account.
        </p>
      </div>

      {canEdit ? (
        <Card className="space-y-4">
          <h2 className="font-semibold">Keys</h2>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (!name.trim()) {
                setNameError('Enter a name');
                return;
              }
              setNameError(null);
              create.mutate();
            }}
          >
            <div className="min-w-0 flex-1">
              <Label htmlFor="api-key-name">Key name</Label>
              <Input
                id="api-key-name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. Website backend"
                maxLength={80}
                aria-invalid={Boolean(nameError)}
                aria-describedby={nameError ? 'api-key-name-error' : undefined}
              />
            </div>
            <Button type="submit" disabled={create.isPending}>
              <KeyRound size={16} aria-hidden="true" /> Create key
            </Button>
          </form>
          <FieldError id="api-key-name-error">{nameError}</FieldError>
          {created ? (
            <div className="space-y-2 rounded-lg border border-primary p-3" role="status">
              <p className="text-sm font-medium">Copy your new key now. It will not be shown again.</p>
              <div className="flex items-center gap-2">
                <code
                  className="min-w-0 flex-1 truncate rounded bg-surface-2 px-2 py-1 font-mono text-sm"
                  data-testid="new-api-key"
                >
                  {created.key}
                </code>
                <Button size="sm" variant="secondary" onClick={() => void copy(created.key)}>
                  <Copy size={14} aria-hidden="true" /> Copy
                </Button>
              </div>
            </div>
          ) : null}
          {keys.isLoading ? <Spinner label="Loading keys" /> : null}
          <ul className="divide-y divide-border" aria-label="API keys">
            {keys.data?.keys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                <span className="font-medium">{key.name}</span>
                <code className="font-mono text-muted">sk_sb_••••{key.keyTail}</code>
                <span className="text-xs text-muted">
                  {key.revokedAt
                    ? 'Revoked'
                    : key.lastUsedAt
                      ? `Last used ${new Date(key.lastUsedAt).toLocaleString()}`
                      : 'Never used'}
                </span>
                {!key.revokedAt ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="ml-auto"
                    onClick={() => revoke.mutate(key.id)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </Card>
      ) : (
        <Card>
          <p className="text-sm text-muted">Viewers cannot create API keys.</p>
        </Card>
      )}

      <Card className="space-y-3">
        <h2 className="font-semibold">Request tester</h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="tester-key">API key</Label>
            <Input
              id="tester-key"
              value={testerKey}
              onChange={(e) => setTesterKey(e.target.value)}
              placeholder="sk_sb_..."
              autoComplete="off"
            />
          </div>
          <div>
            <Label htmlFor="tester-model">Agent (model)</Label>
            <Select id="tester-model" value={agentId} onChange={(e) => setModel(e.target.value)}>
              {agents.data?.agents.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <div>
          <Label htmlFor="tester-message">Message</Label>
          <Textarea id="tester-message" value={message} onChange={(e) => setMessage(e.target.value)} rows={2} />
        </div>
        <Button onClick={() => void sendTest()} disabled={sending || !testerKey.trim() || !agentId || !message.trim()}>
          {sending ? 'Sending...' : 'Send request'}
        </Button>
        <h3 className="text-sm font-medium">Request</h3>
        <pre className="relative overflow-x-auto rounded-lg bg-surface-2 p-3 text-xs">{curl}</pre>
        {result ? <h3 className="text-sm font-medium">Response</h3> : null}
        {result ? (
          <pre className="max-h-80 overflow-auto rounded-lg bg-surface-2 p-3 text-xs" data-testid="tester-response">
            {result}
          </pre>
        ) : null}
      </Card>
    </div>
  );
};
