import {
  type TAccountDomainResponse,
  type TAgencyDomain,
  type TDomainMethod,
  type TDomainStatus,
  upgradePathFor,
  ZPutAccountDomainRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';

const STATUS: Record<TDomainStatus, { label: string; className: string }> = {
  pending: { label: 'Not verified yet', className: 'border-border text-muted' },
  verified: { label: 'Verified', className: 'border-emerald-600/50 text-emerald-800 dark:text-emerald-300' },
  failed: { label: 'Check failed', className: 'border-danger/60 text-danger' },
};

export const DomainStatusBadge = ({ status }: { status: TDomainStatus }) => (
  <span
    className={cn(
      'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium',
      STATUS[status].className,
    )}
  >
    {STATUS[status].label}
  </span>
);

/** A value to copy into a DNS provider's form: monospace, wrapping anywhere on a phone. */
const Value = ({ children }: { children: string }) => (
  <code className="block break-all rounded-md bg-surface-2 px-2 py-1 font-mono text-xs">{children}</code>
);

/** The two ways to prove control of the domain, the chosen one first. */
export const VerificationSteps = ({ domain }: { domain: TAgencyDomain }) => {
  const http = (
    <li key="http" className="space-y-1">
      <p className="font-medium">Over HTTP{domain.method === 'http' ? ' (chosen)' : ''}</p>
      <p className="text-muted">
        Point {domain.hostname} at the platform with a CNAME record. The platform then answers this address with the
        token, and Verify fetches it:
      </p>
      <Value>{domain.httpUrl}</Value>
      <Value>{domain.token}</Value>
    </li>
  );
  const dns = (
    <li key="dns" className="space-y-1">
      <p className="font-medium">With a DNS TXT record{domain.method === 'dns' ? ' (chosen)' : ''}</p>
      <p className="text-muted">
        Add a TXT record with this name and value. Verify reads it; where your DNS is not visible to us, the platform's
        operator confirms it.
      </p>
      <Value>{domain.txtName}</Value>
      <Value>{domain.token}</Value>
    </li>
  );
  return <ol className="space-y-3 text-sm">{domain.method === 'http' ? [http, dns] : [dns, http]}</ol>;
};

const DomainForm = ({ accountId, domain }: { accountId: string; domain: TAgencyDomain | null }) => {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [hostname, setHostname] = useState(domain?.hostname ?? '');
  const [method, setMethod] = useState<TDomainMethod>(domain?.method ?? 'http');
  const [error, setError] = useState<string | null>(null);
  const base = `/api/accounts/${encodeURIComponent(accountId)}/domain`;
  const store = (next: TAgencyDomain | null) =>
    queryClient.setQueryData<TAccountDomainResponse>(['account-domain', accountId], (old) =>
      old ? { ...old, domain: next } : old,
    );
  const save = useMutation({
    mutationFn: (body: { hostname: string; method: TDomainMethod }) =>
      api<TAgencyDomain>(base, { method: 'PUT', body, silent: true }),
    onSuccess: (saved) => {
      setError(null);
      setHostname(saved.hostname);
      store(saved);
    },
    onError: (thrown) => setError(thrown instanceof Error ? thrown.message : 'The domain could not be saved'),
  });
  const verify = useMutation({
    mutationFn: () => api<TAgencyDomain>(`${base}/verify`, { method: 'POST', silent: true }),
    onSuccess: (checked) => {
      store(checked);
      if (checked.status === 'verified') toast.success(`${checked.hostname} is verified`);
    },
    onError: (thrown) => setError(thrown instanceof Error ? thrown.message : 'The domain could not be checked'),
  });
  const remove = useMutation({
    mutationFn: () => api(base, { method: 'DELETE' }),
    onSuccess: () => {
      setHostname('');
      store(null);
      toast.success('Custom domain removed');
    },
  });
  return (
    <div className="space-y-4">
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = ZPutAccountDomainRequest.safeParse({ hostname, method });
          if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the domain');
          save.mutate(parsed.data);
        }}
      >
        <div>
          <Label htmlFor={inputId}>Domain</Label>
          <Input
            id={inputId}
            value={hostname}
            onChange={(event) => setHostname(event.target.value)}
            placeholder="portal.your-agency.com"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${inputId}-error` : undefined}
          />
          <FieldError id={`${inputId}-error`}>{error}</FieldError>
        </div>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <legend className="sr-only">How to verify</legend>
          {(['http', 'dns'] as const).map((value) => (
            <label key={value} className="inline-flex items-center gap-2">
              <input
                type="radio"
                name={`${inputId}-method`}
                checked={method === value}
                onChange={() => setMethod(value)}
                className="accent-[var(--primary)]"
              />
              {value === 'http' ? 'Verify over HTTP' : 'Verify with a DNS TXT record'}
            </label>
          ))}
        </fieldset>
        <Button type="submit" disabled={save.isPending || !hostname.trim()}>
          {save.isPending ? 'Saving...' : domain ? 'Save domain' : 'Add domain'}
        </Button>
      </form>
      {domain ? (
        <div className="space-y-3 border-t border-border pt-4">
          <div className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 break-all font-medium">{domain.hostname}</span>
            <DomainStatusBadge status={domain.status} />
          </div>
          {domain.lastCheckResult ? (
            <p className="text-sm" role="status">
              {domain.lastCheckResult}
              {domain.lastCheckedAt ? (
                <span className="text-muted"> · {new Date(domain.lastCheckedAt).toLocaleString()}</span>
              ) : null}
            </p>
          ) : null}
          <VerificationSteps domain={domain} />
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => verify.mutate()} disabled={verify.isPending}>
              {verify.isPending ? 'Checking...' : 'Verify'}
            </Button>
            <Button variant="ghost" onClick={() => remove.mutate()} disabled={remove.isPending}>
              Remove
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
};

/** The agency's own domain for its clients' portal: for the account's manager, on plans with white-label branding. */
export const CustomDomainCard = ({ accountId, accountName }: { accountId: string; accountName: string }) => {
  const domain = useQuery({
    queryKey: ['account-domain', accountId],
    queryFn: () =>
      api<TAccountDomainResponse>(`/api/accounts/${encodeURIComponent(accountId)}/domain`, { silent: true }),
  });
  return (
    <Card className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">Custom domain</h2>
        <p className="text-xs text-muted">{accountName}</p>
        <p className="text-sm text-muted">
          Your clients use the portal on your own domain. Sign-in and invitation links sent from it use it once it is
          verified.
        </p>
      </div>
      {domain.isLoading ? <Spinner label="Loading the custom domain" /> : null}
      {domain.isError ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-danger">{domain.error instanceof Error ? domain.error.message : 'Could not load'}</span>
          <Button variant="secondary" size="sm" onClick={() => void domain.refetch()}>
            Retry
          </Button>
        </div>
      ) : null}
      {domain.data && !domain.data.included ? (
        <p className="text-sm">
          Your plan does not include a custom domain (white-label branding).{' '}
          <Link
            to={upgradePathFor('whitelabel_branding')}
            className="font-medium underline decoration-primary decoration-2"
          >
            See the plans that do
          </Link>
        </p>
      ) : null}
      {domain.data?.included ? <DomainForm accountId={accountId} domain={domain.data.domain} /> : null}
    </Card>
  );
};
