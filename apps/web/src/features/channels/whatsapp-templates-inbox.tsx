import {
  fillWhatsappTemplate,
  type TWhatsappTemplateOption,
  type TWhatsappTemplateSendResponse,
  type TWhatsappWindow,
  whatsappWindowLabel,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { useWhatsappTemplates } from './whatsapp-templates-picker';

const windowKey = (connectionId: string, threadId: string) => ['whatsapp-window', connectionId, threadId];

/** The time now, again every 30 seconds while `on`. */
const useNow = (on: boolean) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
};

/** A variable's first value: the contact's first name where the variable looks like a name. */
const prefill = (key: string, contactName: string | null) =>
  (key === '1' || /first_?name|^name$/i.test(key)) && contactName ? (contactName.trim().split(/\s+/)[0] ?? '') : '';

/** "Send a template": pick an approved template, fill its variables, see the message, send it. */
export const WhatsappTemplateSender = ({
  connectionId,
  threadId,
  contactName,
  onSent,
}: {
  connectionId: string;
  threadId: string;
  contactName: string | null;
  onSent: () => void;
}) => {
  const list = useWhatsappTemplates(connectionId);
  const templates = list.data?.templates ?? [];
  const [template, setTemplate] = useState<TWhatsappTemplateOption | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const send = useMutation({
    mutationFn: () =>
      api<TWhatsappTemplateSendResponse>(
        `/api/connections/${connectionId}/conversations/${threadId}/whatsapp-template`,
        {
          body: { contentSid: template?.contentSid, values },
          silent: true,
        },
      ),
    onSuccess: () => {
      setTemplate(null);
      setValues({});
      onSent();
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 422)
        setError({ field: failure.field?.replace(/^body\./, ''), message: failure.message });
      else showErrorDialog(failure);
    },
  });
  const choose = (contentSid: string) => {
    const next = templates.find((t) => t.contentSid === contentSid) ?? null;
    setTemplate(next);
    setError(null);
    setValues(Object.fromEntries((next?.variables ?? []).map(({ key }) => [key, prefill(key, contactName)])));
  };
  const filled = template ? fillWhatsappTemplate(template.body, values) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (template && !send.isPending) send.mutate();
  };

  return (
    <form onSubmit={submit} aria-label="Send a template" className="space-y-3 border-t border-border p-3" noValidate>
      <h3 className="text-sm font-semibold">Send a template</h3>
      <div>
        <Label htmlFor={`template-${threadId}`}>Approved template</Label>
        <Select
          id={`template-${threadId}`}
          value={template?.contentSid ?? ''}
          disabled={list.isLoading}
          onChange={(event) => choose(event.target.value)}
        >
          <option value="">{list.isLoading ? 'Loading templates...' : 'Choose a template...'}</option>
          {templates.map((option) => (
            <option key={option.contentSid} value={option.contentSid}>
              {option.name}
            </option>
          ))}
        </Select>
        <FieldError>{error?.field === 'contentSid' ? error.message : null}</FieldError>
        {list.error ? (
          <p role="alert" className="mt-1 text-sm text-danger">
            {list.error.message}
          </p>
        ) : null}
        {list.data && !templates.length ? (
          <p className="mt-1 text-sm text-muted">
            This connection has no approved WhatsApp templates yet: the contact can be answered once they write again.
          </p>
        ) : null}
      </div>
      {template ? (
        <>
          {template.variables.map(({ key, example }) => (
            <div key={key}>
              <Label htmlFor={`template-${threadId}-${key}`}>{`Value for {{${key}}}`}</Label>
              <Input
                id={`template-${threadId}-${key}`}
                value={values[key] ?? ''}
                placeholder={example}
                maxLength={1024}
                onChange={(event) => setValues({ ...values, [key]: event.target.value })}
              />
              <FieldError>{error?.field === `values.${key}` ? error.message : null}</FieldError>
            </div>
          ))}
          <div aria-live="polite">
            <p className="text-xs text-muted">The contact receives:</p>
            <p
              data-testid="whatsapp-template-preview"
              className="mt-1 max-w-md rounded-2xl bg-primary px-3 py-2 text-sm whitespace-pre-wrap break-words text-primary-foreground"
            >
              {filled?.text}
            </p>
            {filled?.missing.length ? (
              <p className="mt-1 text-xs text-muted">
                Fill in {filled.missing.map((key) => `{{${key}}}`).join(', ')} before sending.
              </p>
            ) : null}
          </div>
          <Button type="submit" disabled={send.isPending || Boolean(filled?.missing.length)}>
            {send.isPending ? 'Sending...' : 'Send template'}
          </Button>
        </>
      ) : null}
    </form>
  );
};

/**
 * The reply box of a WhatsApp thread: the 24-hour window's countdown while it is open (free text),
 * and once it has closed "Send a template" instead of free text. Other channels get `children` as is.
 */
export const WhatsappReplyGate = ({
  enabled,
  connectionId,
  threadId,
  contactName,
  canReply,
  children,
}: {
  enabled: boolean;
  connectionId: string;
  threadId: string;
  contactName: string | null;
  canReply: boolean;
  children: ReactNode;
}) => {
  const client = useQueryClient();
  const state = useQuery({
    queryKey: windowKey(connectionId, threadId),
    queryFn: () =>
      api<TWhatsappWindow>(`/api/connections/${connectionId}/conversations/${threadId}/whatsapp-window`, {
        silent: true,
      }),
    enabled,
    refetchInterval: 60_000,
  });
  const current = state.data;
  const now = useNow(Boolean(enabled && current?.open));
  if (!enabled || !current?.applies) return <>{children}</>;
  const open = Boolean(current.closesAt && Date.parse(current.closesAt) > now);
  const onSent = () => {
    void client.invalidateQueries({ queryKey: ['transcript', connectionId, threadId] });
    void client.invalidateQueries({ queryKey: windowKey(connectionId, threadId) });
    void client.invalidateQueries({ queryKey: ['inbox', connectionId] });
  };
  return (
    <>
      <p
        role="status"
        className={
          open
            ? 'border-t border-border px-4 py-2 text-xs text-muted'
            : 'border-t border-border bg-surface-2 px-4 py-2 text-sm'
        }
      >
        {current.lastInboundAt
          ? whatsappWindowLabel(current.closesAt, now)
          : 'This contact has not written yet: WhatsApp accepts only an approved template.'}
      </p>
      {open ? (
        children
      ) : canReply ? (
        <WhatsappTemplateSender
          connectionId={connectionId}
          threadId={threadId}
          contactName={contactName}
          onSent={onSent}
        />
      ) : null}
    </>
  );
};
