import type { TKeyedProviderId, TProviderKeyView } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';

const HELP: Record<TKeyedProviderId, string> = {
  openai: 'Keys start with sk-. Find them at platform.openai.com.',
  openrouter: 'One key for hundreds of models. Find it at openrouter.ai/keys.',
  anthropic: 'Keys start with sk-ant-. Find them at console.anthropic.com.',
  compatible: 'Any server that speaks the OpenAI API: Ollama, vLLM, LM Studio, Azure. The key is optional.',
};

const ProviderRow = ({ connectId, provider }: { connectId: string; provider: TProviderKeyView }) => {
  const queryClient = useQueryClient();
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(provider.baseUrl ?? '');
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const base = `/api/connect/${encodeURIComponent(connectId)}/providers/${provider.provider}`;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['providers', connectId] });
    void queryClient.invalidateQueries({ queryKey: ['models'] });
  };
  const save = useMutation({
    mutationFn: () =>
      api<TProviderKeyView>(base, {
        method: 'PUT',
        body: { apiKey, baseUrl: provider.provider === 'compatible' ? baseUrl || null : null },
        silent: true,
      }),
    onSuccess: (saved) => {
      setApiKey('');
      setError(null);
      toast.success(`${saved.label} connected: ${saved.models.length} models available`);
      refresh();
    },
    onError: (thrown) =>
      setError({
        field: thrown instanceof ApiError && thrown.field === 'baseUrl' ? 'baseUrl' : 'apiKey',
        message: thrown instanceof Error ? thrown.message : 'The key could not be saved',
      }),
  });
  const remove = useMutation({
    mutationFn: () => api(base, { method: 'DELETE' }),
    onSuccess: () => {
      toast.success(`${provider.label} key removed`);
      refresh();
    },
  });
  const id = `provider-${provider.provider}`;
  return (
    <form
      className="space-y-2 border-t border-border pt-4 first:border-t-0 first:pt-0"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{provider.label}</h3>
        {provider.configured ? (
          <span className="inline-flex items-center gap-1 text-xs font-medium text-foreground">
            <CheckCircle2 size={14} className="text-primary" aria-hidden="true" /> Connected
            {provider.keyTail ? <span className="font-mono text-muted">••••{provider.keyTail}</span> : null}
            <span className="text-muted">· {provider.models.length} models</span>
          </span>
        ) : (
          <span className="text-xs text-muted">Not connected</span>
        )}
      </div>
      <p className="text-xs text-muted">{HELP[provider.provider]}</p>
      {provider.provider === 'compatible' ? (
        <div>
          <Label htmlFor={`${id}-url`}>Base URL</Label>
          <Input
            id={`${id}-url`}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            placeholder="http://localhost:11434/v1"
            aria-invalid={error?.field === 'baseUrl'}
          />
          <FieldError>{error?.field === 'baseUrl' ? error.message : null}</FieldError>
        </div>
      ) : null}
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <Label htmlFor={`${id}-key`}>{provider.configured ? 'Replace API key' : 'API key'}</Label>
          <Input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            placeholder={provider.configured && provider.keyTail ? `••••••••${provider.keyTail}` : ''}
            aria-invalid={error?.field === 'apiKey'}
            aria-describedby={error?.field === 'apiKey' ? `${id}-error` : undefined}
          />
        </div>
        <Button type="submit" disabled={save.isPending || (!apiKey && provider.provider !== 'compatible')}>
          {save.isPending ? 'Testing...' : 'Test and save'}
        </Button>
        {provider.configured ? (
          <Button variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Remove
          </Button>
        ) : null}
      </div>
      <FieldError id={`${id}-error`}>{error?.field === 'apiKey' ? error.message : null}</FieldError>
    </form>
  );
};

/** Provider keys of the account: stored encrypted, tested on save, shown only by their last characters. */
export const ProviderKeysCard = ({ connectId }: { connectId: string }) => {
  const providers = useQuery({
    queryKey: ['providers', connectId],
    queryFn: () => api<{ providers: TProviderKeyView[] }>(`/api/connect/${encodeURIComponent(connectId)}/providers`),
  });
  return (
    <Card className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">AI providers</h2>
        <p className="text-sm text-muted">
          Without a key, agents answer with the built-in Offline model so everything can be tried. Add a key to use a
          real model; it is encrypted and never shown again.
        </p>
      </div>
      {providers.isLoading ? <Spinner label="Loading providers" /> : null}
      {providers.data?.providers.map((provider) => (
        <ProviderRow key={provider.provider} connectId={connectId} provider={provider} />
      ))}
    </Card>
  );
};
