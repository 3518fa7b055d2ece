import type {
  TChannelConnection,
  TContact,
  TContactImportPreview,
  TContactImportReport,
  TContactList,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Select } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { ContactEditor, suppressionLabel } from './contact-editor';
import { uploadFile } from './upload';

const ImportWizard = ({ connectId, onDone }: { connectId: string; onDone: () => void }) => {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<TContactImportPreview | null>(null);
  const [mapping, setMapping] = useState({ phone: '', name: '', tags: '', timeZone: '', addTags: '' });
  const [report, setReport] = useState<TContactImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (failure: unknown) => {
    if (failure instanceof ApiError && failure.status === 422) setError(failure.message);
    else showErrorDialog(failure);
  };
  const read = useMutation({
    mutationFn: (chosen: File) =>
      uploadFile<TContactImportPreview>(`/api/channels/${connectId}/contacts/import/preview`, chosen),
    onSuccess: (result) => {
      setPreview(result);
      setMapping({
        phone: result.suggestedMapping.phone ?? '',
        name: result.suggestedMapping.name ?? '',
        tags: result.suggestedMapping.tags ?? '',
        timeZone: result.suggestedMapping.timeZone ?? '',
        addTags: '',
      });
    },
    onError: fail,
  });
  const run = useMutation({
    mutationFn: () =>
      uploadFile<TContactImportReport>(`/api/channels/${connectId}/contacts/import`, file as File, {
        mapping: JSON.stringify({
          phone: mapping.phone,
          ...(mapping.name ? { name: mapping.name } : {}),
          ...(mapping.tags ? { tags: mapping.tags } : {}),
          ...(mapping.timeZone ? { timeZone: mapping.timeZone } : {}),
          attributes: (preview?.columns ?? []).filter(
            (c) => ![mapping.phone, mapping.name, mapping.tags, mapping.timeZone].includes(c),
          ),
          addTags: mapping.addTags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }),
      }),
    onSuccess: (result) => {
      setReport(result);
      onDone();
    },
    onError: fail,
  });
  const columnSelect = (id: keyof typeof mapping, label: string, optional: boolean) => (
    <div>
      <Label htmlFor={`map-${id}`}>{label}</Label>
      <Select
        id={`map-${id}`}
        value={mapping[id]}
        onChange={(event) => setMapping({ ...mapping, [id]: event.target.value })}
      >
        <option value="">{optional ? 'Not in this file' : 'Pick a column'}</option>
        {preview?.columns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </Select>
    </div>
  );

  return (
    <Card>
      <h2 className="font-semibold">Import contacts from CSV</h2>
      <p className="mt-1 text-sm text-muted">
        UTF-8 CSV with a header row, up to 5 MB and 50,000 contacts. Other columns become template variables.
      </p>
      <div className="mt-3">
        <Label htmlFor="csv-file">CSV file</Label>
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          className="block text-sm"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setPreview(null);
            setReport(null);
            setError(null);
            if (chosen) read.mutate(chosen);
          }}
        />
      </div>
      <FieldError>{error}</FieldError>
      {preview ? (
        <div className="mt-4 space-y-4">
          <p className="text-sm">{preview.rowCount} rows. Map the columns:</p>
          <div className="grid gap-3 sm:grid-cols-2">
            {columnSelect('phone', 'Phone number', false)}
            {columnSelect('name', 'Name', true)}
            {columnSelect('tags', 'Tags', true)}
            {columnSelect('timeZone', 'Time zone (IANA, e.g. Europe/Berlin)', true)}
          </div>
          <div>
            <Label htmlFor="map-add-tags">Tag every imported contact (comma-separated)</Label>
            <Input
              id="map-add-tags"
              value={mapping.addTags}
              onChange={(event) => setMapping({ ...mapping, addTags: event.target.value })}
              placeholder="spring-2026"
            />
          </div>
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-xs">
              <caption className="sr-only">First rows of the file</caption>
              <thead>
                <tr>
                  {preview.columns.map((column) => (
                    <th key={column} className="border-b border-border px-2 py-1">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.sampleRows.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
                  <tr key={i}>
                    {row.map((cell, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells have no identity
                      <td key={j} className="border-b border-border px-2 py-1">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Button onClick={() => run.mutate()} disabled={!mapping.phone || run.isPending}>
            {run.isPending ? 'Importing...' : 'Import contacts'}
          </Button>
        </div>
      ) : null}
      {report ? (
        <div className="mt-4" role="status">
          <p className="text-sm font-medium">
            Imported {report.imported} new, updated {report.updated}, rejected {report.rejectedCount}.
          </p>
          {report.rejected.length ? (
            <table className="mt-2 w-full text-left text-xs">
              <caption className="sr-only">Rejected rows</caption>
              <thead>
                <tr>
                  <th className="px-2 py-1">Line</th>
                  <th className="px-2 py-1">Value</th>
                  <th className="px-2 py-1">Code</th>
                  <th className="px-2 py-1">Reason</th>
                </tr>
              </thead>
              <tbody>
                {report.rejected.map((row) => (
                  <tr key={row.line} className="border-t border-border">
                    <td className="px-2 py-1">{row.line}</td>
                    <td className="px-2 py-1">{row.value}</td>
                    <td className="px-2 py-1">{row.code}</td>
                    <td className="px-2 py-1">{row.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
};

/** Contacts of the sub-account: search, tags, time zone, opt-out state (cleared, edited), add, edit, delete, import. */
export const ContactsTab = ({ connection, canEdit }: { connection: TChannelConnection; canEdit: boolean }) => {
  const client = useQueryClient();
  // The connection's id: the opt-out state shown is of its sender (contacts are the sub-account's).
  const connectId = connection.connectionId;
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [page, setPage] = useState(1);
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [editing, setEditing] = useState<TContact | null>(null);
  const query = new URLSearchParams({
    page: String(page),
    limit: '25',
    ...(search ? { search } : {}),
    ...(tag ? { tag } : {}),
  });
  const contacts = useQuery({
    queryKey: ['contacts', connectId, page, search, tag],
    queryFn: () => api<TContactList>(`/api/channels/${connectId}/contacts?${query}`, { silent: true }),
    placeholderData: (previous) => previous,
  });
  // Every contact list (the campaign editor's tags too: it reads them by sub-account).
  const refresh = () => client.invalidateQueries({ queryKey: ['contacts'] });
  const add = useMutation({
    mutationFn: () =>
      api(`/api/channels/${connectId}/contacts`, { body: { phone, ...(name ? { name } : {}) }, silent: true }),
    onSuccess: () => {
      setPhone('');
      setName('');
      void refresh();
    },
    onError: (failure) => {
      if (failure instanceof ApiError && [409, 422].includes(failure.status)) setAddError(failure.message);
      else showErrorDialog(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAddError(null);
    add.mutate();
  };
  const clear = useMutation({
    mutationFn: (contact: TContact) =>
      api(`/api/channels/${connectId}/contacts/${contact.contactId}`, {
        method: 'PATCH',
        body: { optedOut: false },
      }),
    onSuccess: () => void refresh(),
  });
  const data = contacts.data;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_380px]">
      <Card className="p-0">
        <div className="flex flex-wrap gap-2 border-b border-border p-3">
          <label htmlFor="contact-search" className="sr-only">
            Search contacts
          </label>
          <Input
            id="contact-search"
            className="max-w-xs"
            placeholder="Search name or number"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
          <label htmlFor="contact-tag" className="sr-only">
            Filter by tag
          </label>
          <Select
            id="contact-tag"
            className="max-w-[12rem]"
            value={tag}
            onChange={(e) => {
              setTag(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All tags</option>
            {data?.tags.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </Select>
          <span className="ml-auto self-center text-sm text-muted">{data?.total ?? 0} contacts</span>
        </div>
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Contacts</caption>
            <thead>
              <tr className="text-xs text-muted">
                <th className="px-3 py-2">Number</th>
                <th className="px-3 py-2">Name</th>
                <th className="px-3 py-2">Tags</th>
                <th className="px-3 py-2">Time zone</th>
                <th className="px-3 py-2">State</th>
                {canEdit ? (
                  <th className="px-3 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {data?.contacts.map((contact) => (
                <tr key={contact.contactId} className="border-t border-border">
                  <td className="px-3 py-2 font-mono text-xs">{contact.phone}</td>
                  <td className="px-3 py-2">{contact.name ?? '—'}</td>
                  <td className="px-3 py-2 text-xs">{contact.tags.join(', ')}</td>
                  <td className="px-3 py-2 text-xs">{contact.timeZone ?? '—'}</td>
                  <td className="px-3 py-2 text-xs">
                    {suppressionLabel(contact)}
                    {canEdit && contact.suppression?.clearable ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="ml-1"
                        aria-label={`Clear the suppression of ${contact.phone}`}
                        disabled={clear.isPending}
                        onClick={() => clear.mutate(contact)}
                      >
                        Clear
                      </Button>
                    ) : null}
                  </td>
                  {canEdit ? (
                    <td className="px-3 py-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={`Edit ${contact.name ?? contact.phone}`}
                        onClick={() => setEditing(contact)}
                      >
                        Edit
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {data && !data.contacts.length ? (
            <p className="p-4 text-sm text-muted">No contacts yet. Import a CSV or add one.</p>
          ) : null}
        </div>
        <div className="flex justify-between p-3">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!data || page * 25 >= data.total}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </div>
      </Card>
      {canEdit ? (
        <div className="min-w-0 space-y-4">
          {editing ? (
            <ContactEditor
              key={editing.contactId}
              connectId={connectId}
              contact={editing}
              onSaved={() => void refresh()}
              onClose={() => setEditing(null)}
            />
          ) : null}
          <ImportWizard connectId={connectId} onDone={() => void refresh()} />
          <Card>
            <h2 className="font-semibold">Add a contact</h2>
            <form onSubmit={submit} className="mt-3 space-y-3" noValidate>
              <div>
                <Label htmlFor="contact-phone">Phone number</Label>
                <Input
                  id="contact-phone"
                  value={phone}
                  onChange={(e) => setPhone(e.target.value)}
                  placeholder="+15555555555"
                  inputMode="tel"
                />
              </div>
              <div>
                <Label htmlFor="contact-name">Name</Label>
                <Input id="contact-name" value={name} onChange={(e) => setName(e.target.value)} />
              </div>
              <FieldError>{addError}</FieldError>
              <Button type="submit" disabled={!phone.trim() || add.isPending}>
                Add contact
              </Button>
            </form>
          </Card>
        </div>
      ) : null}
    </div>
  );
};
