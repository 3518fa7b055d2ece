import {
  type TWhatsappTemplateList,
  type TWhatsappTemplateOption,
  type TWhatsappTemplatePreview,
  type TWhatsappVariableMappings,
  type TWhatsappVariableSource,
  WHATSAPP_VARIABLE_SOURCE_LABELS,
  WHATSAPP_VARIABLE_SOURCES,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';

export interface WhatsappTemplatePick {
  contentSid: string;
  variables: TWhatsappVariableMappings;
}

/** The connection's approved WhatsApp templates (the server keeps them a minute). */
export const useWhatsappTemplates = (connectionId: string | null) =>
  useQuery({
    queryKey: ['channel', connectionId, 'whatsapp-templates'],
    queryFn: () => api<TWhatsappTemplateList>(`/api/channels/${connectionId}/whatsapp-templates`, { silent: true }),
    enabled: Boolean(connectionId),
    retry: false,
  });

/** A variable's default mapping: a name-like variable is the first name, others wait for a choice. */
const defaultMapping = (key: string): TWhatsappVariableMappings[string] | undefined =>
  key === '1' || /first_?name|^name$/i.test(key)
    ? { source: 'first_name' }
    : /last_?name/i.test(key)
      ? { source: 'last_name' }
      : /e_?mail/i.test(key)
        ? { source: 'email' }
        : /phone/i.test(key)
          ? { source: 'phone' }
          : undefined;

export const pickTemplate = (template: TWhatsappTemplateOption): WhatsappTemplatePick => ({
  contentSid: template.contentSid,
  variables: Object.fromEntries(
    template.variables.flatMap(({ key }) => {
      const mapping = defaultMapping(key);
      return mapping ? [[key, mapping]] : [];
    }),
  ),
});

const VariableRow = ({
  variable,
  mapping,
  onChange,
  error,
}: {
  variable: TWhatsappTemplateOption['variables'][number];
  mapping: TWhatsappVariableMappings[string] | undefined;
  onChange: (mapping: TWhatsappVariableMappings[string] | undefined) => void;
  error: string | null;
}) => {
  const id = useId();
  const needsValue = mapping?.source === 'custom' || mapping?.source === 'text';
  return (
    <div className="grid gap-2 sm:grid-cols-[8rem_1fr_1fr] sm:items-start">
      <Label htmlFor={`${id}-source`} className="pt-2 font-mono text-sm">
        {`{{${variable.key}}}`}
      </Label>
      <Select
        id={`${id}-source`}
        aria-label={`What fills {{${variable.key}}}`}
        value={mapping?.source ?? ''}
        onChange={(event) => {
          const source = event.target.value as TWhatsappVariableSource | '';
          onChange(source ? { source } : undefined);
        }}
      >
        <option value="">Choose a contact field...</option>
        {WHATSAPP_VARIABLE_SOURCES.map((source) => (
          <option key={source} value={source}>
            {WHATSAPP_VARIABLE_SOURCE_LABELS[source]}
          </option>
        ))}
      </Select>
      {needsValue ? (
        <Input
          aria-label={
            mapping?.source === 'custom' ? `Custom field for {{${variable.key}}}` : `Fixed text for {{${variable.key}}}`
          }
          value={mapping?.value ?? ''}
          placeholder={mapping?.source === 'custom' ? 'Imported column, e.g. company' : variable.example || 'Text'}
          onChange={(event) => onChange({ source: mapping.source, value: event.target.value })}
        />
      ) : (
        <p className="pt-2 text-xs text-muted">{variable.example ? `Sample: ${variable.example}` : null}</p>
      )}
      {error ? (
        <div className="sm:col-span-3">
          <FieldError>{error}</FieldError>
        </div>
      ) : null}
    </div>
  );
};

/**
 * A WhatsApp campaign's template: picked from the connection's approved list, each variable mapped
 * to a contact field or a fixed text, and previewed with a sample contact.
 */
export const WhatsappTemplatePicker = ({
  connectionId,
  value,
  onChange,
  errorFor,
}: {
  connectionId: string;
  value: WhatsappTemplatePick | null;
  onChange: (value: WhatsappTemplatePick | null) => void;
  errorFor: (...fields: string[]) => string | null;
}) => {
  const client = useQueryClient();
  const list = useWhatsappTemplates(connectionId);
  const templates = list.data?.templates ?? [];
  const selected = templates.find((template) => template.contentSid === value?.contentSid) ?? null;
  const refresh = useMutation({
    mutationFn: () =>
      api<TWhatsappTemplateList>(`/api/channels/${connectionId}/whatsapp-templates?refresh=true`, { silent: true }),
    onSuccess: (data) => client.setQueryData(['channel', connectionId, 'whatsapp-templates'], data),
  });
  const preview = useMutation({
    mutationFn: (pick: WhatsappTemplatePick) =>
      api<TWhatsappTemplatePreview>(`/api/channels/${connectionId}/whatsapp-templates/preview`, {
        body: pick,
        silent: true,
      }),
  });
  const failure = list.error ?? refresh.error;
  const previewError =
    preview.error instanceof ApiError || preview.error instanceof Error ? preview.error.message : null;

  return (
    <div className="space-y-3 rounded-md border border-border p-3">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <Label htmlFor="whatsapp-template">Approved template</Label>
          <Select
            id="whatsapp-template"
            value={value?.contentSid ?? ''}
            disabled={list.isLoading}
            onChange={(event) => {
              const template = templates.find((t) => t.contentSid === event.target.value);
              preview.reset();
              onChange(template ? pickTemplate(template) : null);
            }}
          >
            <option value="">{list.isLoading ? 'Loading templates...' : 'Choose a template...'}</option>
            {templates.map((template) => (
              <option key={template.contentSid} value={template.contentSid}>
                {template.name}
                {template.language ? ` (${template.language})` : ''}
              </option>
            ))}
          </Select>
        </div>
        <Button variant="secondary" size="sm" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          {refresh.isPending ? 'Refreshing...' : 'Refresh list'}
        </Button>
      </div>
      <FieldError>{errorFor('whatsappTemplate.contentSid', 'whatsappTemplate.body')}</FieldError>
      {failure ? (
        <p role="alert" className="text-sm text-danger">
          {failure.message}
        </p>
      ) : null}
      {list.data && !templates.length ? (
        <p className="text-sm text-muted">
          This connection has no approved WhatsApp templates yet. Create one in Twilio’s Content Template Builder and
          submit it to WhatsApp; it shows here once approved.
        </p>
      ) : null}
      {list.data?.sandbox ? (
        <p className="text-xs text-muted">Sandbox templates: messages go to the sandbox phone, never to WhatsApp.</p>
      ) : null}
      {selected && value ? (
        <>
          <div>
            <p className="text-sm font-medium">Template text</p>
            <p className="mt-1 rounded-md bg-surface-2 p-2 text-sm whitespace-pre-wrap break-words">{selected.body}</p>
          </div>
          {selected.variables.length ? (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Fill each variable from</legend>
              {selected.variables.map((variable) => (
                <VariableRow
                  key={variable.key}
                  variable={variable}
                  mapping={value.variables[variable.key]}
                  error={errorFor(`whatsappTemplate.variables.${variable.key}`)}
                  onChange={(mapping) => {
                    const { [variable.key]: _removed, ...rest } = value.variables;
                    preview.reset();
                    onChange({ ...value, variables: mapping ? { ...rest, [variable.key]: mapping } : rest });
                  }}
                />
              ))}
            </fieldset>
          ) : (
            <p className="text-sm text-muted">This template has no variables.</p>
          )}
          <div className="space-y-2">
            <Button variant="secondary" size="sm" disabled={preview.isPending} onClick={() => preview.mutate(value)}>
              Preview with a contact
            </Button>
            {previewError ? (
              <p role="alert" className="text-sm text-danger">
                {previewError}
              </p>
            ) : null}
            {preview.data ? (
              <div aria-live="polite" className="space-y-1">
                <p className="text-xs text-muted">
                  {preview.data.contact
                    ? `As ${preview.data.contact.name ?? preview.data.contact.phone} (${preview.data.contact.phone}) receives it:`
                    : 'No contacts yet: shown with sample values.'}
                </p>
                <p
                  data-testid="whatsapp-template-preview"
                  className="max-w-md rounded-2xl bg-primary px-3 py-2 text-sm whitespace-pre-wrap break-words text-primary-foreground"
                >
                  {preview.data.body}
                </p>
                {preview.data.missing.length ? (
                  <p className="text-xs text-danger">
                    This contact has no value for {preview.data.missing.map((key) => `{{${key}}}`).join(', ')}: contacts
                    like them are skipped at the send.
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        </>
      ) : null}
    </div>
  );
};
