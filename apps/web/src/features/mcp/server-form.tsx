import { type TMcpServer, ZCreateMcpServerRequest } from '@switchboard/core';
import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';

export interface ServerFormValues {
  name: string;
  url: string;
  headers: { name: string; value?: string }[];
}

interface HeaderRow {
  key: number;
  name: string;
  value: string;
  /** The last four characters of the stored value (editing), shown as the placeholder. */
  tail?: string;
}

let nextKey = 1;
const row = (name = '', value = '', tail?: string): HeaderRow => ({ key: nextKey++, name, value, tail });

/**
 * The add and edit form of an MCP server: name, URL and header rows (authentication). When
 * editing, a header left empty keeps its stored value (shown masked); values are never read back.
 */
export const ServerForm = ({
  server,
  label,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  server?: TMcpServer;
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: ServerFormValues) => Promise<unknown>;
  onCancel?: () => void;
}) => {
  const id = useId();
  const [name, setName] = useState(server?.name ?? '');
  const [url, setUrl] = useState(server?.url ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(
    server?.headers.map((header) => row(header.name, '', header.valueTail)) ?? [],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});

  const setHeader = (key: number, change: Partial<HeaderRow>) =>
    setHeaders((rows) => rows.map((one) => (one.key === key ? { ...one, ...change } : one)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Empty rows are dropped, so the row numbers of errors match the rows shown.
    const kept = headers.filter((one) => one.name.trim() || one.value || one.tail !== undefined);
    setHeaders(kept);
    const values: ServerFormValues = {
      name: name.trim(),
      url: url.trim(),
      headers: kept.map((one) => ({
        name: one.name.trim(),
        ...(one.value || one.tail === undefined ? { value: one.value } : {}),
      })),
    };
    const parsed = ZCreateMcpServerRequest.safeParse({
      ...values,
      headers: values.headers.map((one) => ({ ...one, value: one.value ?? 'kept' })),
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path.join('.');
        if (!found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await onSubmit(values);
      if (!server) {
        setName('');
        setUrl('');
        setHeaders([]);
      }
    } catch (error) {
      if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
      else setErrors({ form: error instanceof Error ? error.message : 'The server could not be saved' });
    }
  };

  const errorOf = (field: string) => errors[field] ?? null;
  const describedBy = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined);

  return (
    <form aria-label={label} className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="e.g. Weather tools"
            maxLength={120}
            aria-invalid={Boolean(errorOf('name'))}
            aria-describedby={describedBy('name')}
          />
          <FieldError id={`${id}-name-error`}>{errorOf('name')}</FieldError>
        </div>
        <div>
          <Label htmlFor={`${id}-url`}>Server URL</Label>
          <Input
            id={`${id}-url`}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder="https://example.com/mcp"
            inputMode="url"
            autoComplete="off"
            aria-invalid={Boolean(errorOf('url'))}
            aria-describedby={describedBy('url')}
          />
          <FieldError id={`${id}-url-error`}>{errorOf('url')}</FieldError>
        </div>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Headers</legend>
        <p className="text-xs text-muted">
          Sent with every request, for example Authorization: Bearer …. Values are stored encrypted and shown masked.
        </p>
        {headers.map((header, index) => (
          <div key={header.key} className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[1fr_1fr_auto]">
            <div className="col-span-2 sm:col-span-1">
              <Label htmlFor={`${id}-h${header.key}-name`} className="sr-only">
                Header {index + 1} name
              </Label>
              <Input
                id={`${id}-h${header.key}-name`}
                value={header.name}
                onChange={(event) => setHeader(header.key, { name: event.target.value })}
                placeholder="Header name"
                autoComplete="off"
                aria-invalid={Boolean(errorOf(`headers.${index}.name`))}
              />
              <FieldError>{errorOf(`headers.${index}.name`)}</FieldError>
            </div>
            <div>
              <Label htmlFor={`${id}-h${header.key}-value`} className="sr-only">
                Header {index + 1} value
              </Label>
              <Input
                id={`${id}-h${header.key}-value`}
                type="password"
                value={header.value}
                onChange={(event) => setHeader(header.key, { value: event.target.value })}
                placeholder={header.tail !== undefined ? `Unchanged (••••${header.tail})` : 'Value'}
                autoComplete="new-password"
                aria-invalid={Boolean(errorOf(`headers.${index}.value`))}
              />
              <FieldError>{errorOf(`headers.${index}.value`)}</FieldError>
            </div>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove header ${index + 1}`}
              onClick={() => setHeaders((rows) => rows.filter((one) => one.key !== header.key))}
            >
              <Trash2 size={16} aria-hidden="true" />
            </Button>
          </div>
        ))}
        <FieldError>{errorOf('headers')}</FieldError>
        <Button variant="secondary" size="sm" onClick={() => setHeaders((rows) => [...rows, row()])}>
          <Plus size={14} aria-hidden="true" /> Add header
        </Button>
      </fieldset>
      <FieldError>{errorOf('form')}</FieldError>
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Connecting…' : submitLabel}
        </Button>
      </div>
    </form>
  );
};
