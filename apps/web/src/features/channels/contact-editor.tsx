import { isTimeZone, type TContact, type TUpdateContactRequest, ZContactTag } from '@switchboard/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';
import { FieldError, Input, Label } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';

/** What a contact's state says on the list: subscribed, or why it gets no messages. */
export const suppressionLabel = (contact: TContact) => {
  const suppression = contact.suppression;
  if (!contact.optedOut || !suppression) return 'Subscribed';
  if (suppression.source === 'keyword') return `Opted out (texted ${suppression.keyword ?? 'STOP'})`;
  if (suppression.source === 'failed')
    return `Suppressed: ${suppression.errorMessage ?? 'sends failed for good'}${suppression.errorCode ? ` (${suppression.errorCode})` : ''}`;
  return 'Opted out (marked by hand)';
};

const timeZones = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
})();

/** Edit one contact: name, tags, time zone (IANA), whether it gets messages; delete it after a confirmation. */
export const ContactEditor = ({
  connectId,
  contact,
  onSaved,
  onClose,
}: {
  connectId: string;
  contact: TContact;
  onSaved: () => void;
  onClose: () => void;
}) => {
  const [name, setName] = useState(contact.name ?? '');
  const [tags, setTags] = useState(contact.tags.join(', '));
  const [timeZone, setTimeZone] = useState(contact.timeZone ?? '');
  const [subscribed, setSubscribed] = useState(!contact.optedOut);
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const zonesId = useId();
  const url = `/api/channels/${connectId}/contacts/${contact.contactId}`;
  const fail = (failure: unknown) => {
    if (failure instanceof ApiError && [409, 422].includes(failure.status))
      setError({ field: failure.field ?? 'form', message: failure.message });
    else showErrorDialog(failure);
  };
  const save = useMutation({
    mutationFn: (body: TUpdateContactRequest) => api<TContact>(url, { method: 'PATCH', body, silent: true }),
    onSuccess: () => {
      onSaved();
      onClose();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: () => api(url, { method: 'DELETE', silent: true }),
    onSuccess: () => {
      setConfirmDelete(false);
      onSaved();
      onClose();
    },
    onError: (failure) => {
      setConfirmDelete(false);
      showErrorDialog(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const tagList = tags
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    const badTag = tagList.find((tag) => !ZContactTag.safeParse(tag).success);
    if (badTag)
      return setError({ field: 'tags', message: `"${badTag}": tags use letters, digits, spaces, dots and dashes` });
    const zone = timeZone.trim();
    if (zone && !isTimeZone(zone))
      return setError({ field: 'timeZone', message: 'Pick a time zone such as Europe/Berlin' });
    save.mutate({
      name: name.trim() || null,
      tags: tagList,
      timeZone: zone || null,
      ...(subscribed !== !contact.optedOut ? { optedOut: !subscribed } : {}),
    });
  };
  const stop = contact.suppression?.source === 'keyword';
  const fieldError = (field: string) => (error?.field === field ? error.message : null);

  return (
    <Card>
      <h2 className="font-semibold">
        Edit contact <span className="font-mono text-sm">{contact.phone}</span>
      </h2>
      <form onSubmit={submit} className="mt-3 space-y-3" noValidate>
        <div>
          <Label htmlFor="edit-contact-name">Name</Label>
          <Input id="edit-contact-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="edit-contact-tags">Tags (comma-separated)</Label>
          <Input id="edit-contact-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
          <FieldError>{fieldError('tags')}</FieldError>
        </div>
        <div>
          <Label htmlFor="edit-contact-zone">Time zone (for quiet hours)</Label>
          <Input
            id="edit-contact-zone"
            list={zonesId}
            value={timeZone}
            placeholder="Europe/Berlin"
            onChange={(e) => setTimeZone(e.target.value)}
          />
          <datalist id={zonesId}>
            {timeZones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
          <p className="mt-1 text-xs text-muted">Empty: the campaign's time zone.</p>
          <FieldError>{fieldError('timeZone')}</FieldError>
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Messages</legend>
          <p className="text-xs text-muted">{suppressionLabel(contact)}</p>
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={subscribed}
              disabled={stop && !subscribed}
              onChange={(e) => setSubscribed(e.target.checked)}
            />
            Gets messages (campaigns and replies)
          </label>
          {stop ? (
            <p className="mt-1 text-xs text-muted">This number texted STOP: only its own START subscribes it again.</p>
          ) : null}
          <FieldError>{fieldError('optedOut')}</FieldError>
        </fieldset>
        <FieldError>{fieldError('form') ?? fieldError('name')}</FieldError>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            Save contact
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" className="ml-auto" onClick={() => setConfirmDelete(true)}>
            Delete contact
          </Button>
        </div>
      </form>
      <ConfirmDeleteDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${contact.name ?? contact.phone}?`}
        description="The contact leaves every audience. If the number opted out, it stays opted out when added again."
        onConfirm={() => remove.mutate()}
        busy={remove.isPending}
      />
    </Card>
  );
};
