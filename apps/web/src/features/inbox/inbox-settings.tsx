import { LABEL_COLORS, type TCannedReply, type TInboxLabel, type TLabelColor } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Input, Label, Select, Textarea } from '../../components/ui/input';
import { api } from '../../lib/api';
import { inboxBase, useCannedReplies, useLabels } from './api';
import { LabelChip } from './labels';

const COLOR_NAMES: Record<TLabelColor, string> = {
  gray: 'Gray',
  red: 'Red',
  orange: 'Orange',
  green: 'Green',
  teal: 'Teal',
  blue: 'Blue',
  purple: 'Purple',
  pink: 'Pink',
};

/** The sub-account's labels and canned replies: add, rename, recolour, edit, delete. */
export const InboxSettingsDialog = ({
  subaccountId,
  open,
  onOpenChange,
  canEdit,
}: {
  subaccountId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canEdit: boolean;
}) => (
  <Dialog open={open} onOpenChange={onOpenChange} title="Labels and canned replies" className="max-w-2xl">
    <div className="space-y-6">
      <LabelsSection subaccountId={subaccountId} canEdit={canEdit} />
      <CannedSection subaccountId={subaccountId} canEdit={canEdit} />
    </div>
  </Dialog>
);

const LabelsSection = ({ subaccountId, canEdit }: { subaccountId: string; canEdit: boolean }) => {
  const client = useQueryClient();
  const labels = useLabels(subaccountId);
  const [name, setName] = useState('');
  const [color, setColor] = useState<TLabelColor>('blue');
  const refresh = () => void client.invalidateQueries({ queryKey: ['inbox-labels', subaccountId] });
  const create = useMutation({
    mutationFn: () => api(`${inboxBase(subaccountId)}/labels`, { body: { name, color } }),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <section aria-labelledby="labels-heading" className="space-y-2">
      <h3 id="labels-heading" className="font-semibold">
        Labels
      </h3>
      <ul className="space-y-2">
        {(labels.data?.labels ?? []).map((label) => (
          <LabelRow key={label.labelId} subaccountId={subaccountId} label={label} canEdit={canEdit} onDone={refresh} />
        ))}
      </ul>
      {canEdit ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="min-w-40 flex-1">
            <Label htmlFor="new-label-name">New label</Label>
            <Input id="new-label-name" value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
          </div>
          <div>
            <Label htmlFor="new-label-color">Colour</Label>
            <Select id="new-label-color" value={color} onChange={(e) => setColor(e.target.value as TLabelColor)}>
              {LABEL_COLORS.map((value) => (
                <option key={value} value={value}>
                  {COLOR_NAMES[value]}
                </option>
              ))}
            </Select>
          </div>
          <Button type="submit" disabled={!name.trim() || create.isPending}>
            Add label
          </Button>
        </form>
      ) : null}
    </section>
  );
};

const LabelRow = ({
  subaccountId,
  label,
  canEdit,
  onDone,
}: {
  subaccountId: string;
  label: TInboxLabel;
  canEdit: boolean;
  onDone: () => void;
}) => {
  const [name, setName] = useState(label.name);
  const url = `${inboxBase(subaccountId)}/labels/${label.labelId}`;
  const update = useMutation({
    mutationFn: (body: { name?: string; color?: TLabelColor }) => api(url, { method: 'PATCH', body }),
    onSuccess: onDone,
  });
  const remove = useMutation({ mutationFn: () => api(url, { method: 'DELETE' }), onSuccess: onDone });
  if (!canEdit)
    return (
      <li>
        <LabelChip label={label} />
      </li>
    );
  return (
    <li className="flex flex-wrap items-center gap-2">
      <LabelChip label={label} className="shrink-0" />
      <Input
        aria-label={`Name of label ${label.name}`}
        value={name}
        maxLength={40}
        className="min-w-32 flex-1"
        onChange={(e) => setName(e.target.value)}
        onBlur={() => name.trim() && name.trim() !== label.name && update.mutate({ name: name.trim() })}
      />
      <Select
        aria-label={`Colour of label ${label.name}`}
        value={label.color}
        onChange={(e) => update.mutate({ color: e.target.value as TLabelColor })}
      >
        {LABEL_COLORS.map((value) => (
          <option key={value} value={value}>
            {COLOR_NAMES[value]}
          </option>
        ))}
      </Select>
      <Button size="sm" variant="ghost" onClick={() => remove.mutate()} aria-label={`Delete label ${label.name}`}>
        Delete
      </Button>
    </li>
  );
};

const CannedSection = ({ subaccountId, canEdit }: { subaccountId: string; canEdit: boolean }) => {
  const client = useQueryClient();
  const canned = useCannedReplies(subaccountId);
  const [editing, setEditing] = useState<TCannedReply | null>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const refresh = () => void client.invalidateQueries({ queryKey: ['canned-replies', subaccountId] });
  const base = `${inboxBase(subaccountId)}/canned-replies`;
  const save = useMutation({
    mutationFn: () =>
      editing
        ? api(`${base}/${editing.cannedReplyId}`, { method: 'PUT', body: { title, content } })
        : api(base, { body: { title, content } }),
    onSuccess: () => {
      setEditing(null);
      setTitle('');
      setContent('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`${base}/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() && content.trim()) save.mutate();
  };
  return (
    <section aria-labelledby="canned-heading" className="space-y-2">
      <h3 id="canned-heading" className="font-semibold">
        Canned replies
      </h3>
      <p className="text-sm text-muted">In a reply, type / and part of a title to insert one.</p>
      <ul className="space-y-2">
        {(canned.data?.cannedReplies ?? []).map((reply) => (
          <li key={reply.cannedReplyId} className="rounded-lg border border-border p-3 text-sm">
            <span className="block font-medium">{reply.title}</span>
            <span className="block whitespace-pre-wrap text-muted">{reply.content}</span>
            {canEdit ? (
              <span className="mt-2 flex gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => {
                    setEditing(reply);
                    setTitle(reply.title);
                    setContent(reply.content);
                  }}
                >
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={() => remove.mutate(reply.cannedReplyId)}>
                  Delete
                </Button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? (
        <form onSubmit={submit} className="space-y-2">
          <div>
            <Label htmlFor="canned-title">{editing ? 'Title' : 'New canned reply: title'}</Label>
            <Input id="canned-title" value={title} maxLength={80} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <div>
            <Label htmlFor="canned-content">Text</Label>
            <Textarea
              id="canned-content"
              value={content}
              maxLength={4000}
              onChange={(e) => setContent(e.target.value)}
              className="min-h-20"
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" disabled={!title.trim() || !content.trim() || save.isPending}>
              {editing ? 'Save canned reply' : 'Add canned reply'}
            </Button>
            {editing ? (
              <Button
                variant="ghost"
                onClick={() => {
                  setEditing(null);
                  setTitle('');
                  setContent('');
                }}
              >
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      ) : null}
    </section>
  );
};
