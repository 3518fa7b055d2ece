import {
  smsEncoding,
  type TCampaign,
  type TCampaignInput,
  type TChannelConnection,
  type TContactList,
  templateVariables,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Input, Label, Textarea } from '../../components/ui/input';
import { ApiError, api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';
import { CampaignReport, STATUS_LABELS } from './campaign-report';
import { MediaUpload } from './media-upload';
import { SequenceEditor, sequenceDraftOf, sequencePayload } from './sequence-editor';
import { useCampaignDetail } from './sequence-report';
import { type WhatsappTemplatePick, WhatsappTemplatePicker } from './whatsapp-templates-picker';

const useCampaigns = (connectionId: string) =>
  useQuery({
    queryKey: ['channel', connectionId, 'campaigns'],
    queryFn: () => api<{ campaigns: TCampaign[] }>(`/api/channels/${connectionId}/campaigns`, { silent: true }),
  });

const Editor = ({
  connection,
  campaign,
  onSaved,
  onCancel,
}: {
  connection: TChannelConnection;
  campaign: TCampaign | null;
  onSaved: (campaign: TCampaign) => void;
  onCancel: () => void;
}) => {
  const whatsapp = connection.type === 'whatsapp';
  const contacts = useQuery({
    queryKey: ['contacts', connection.subaccountId, 'tags'],
    queryFn: () => api<TContactList>(`/api/channels/${connection.subaccountId}/contacts?limit=1`, { silent: true }),
  });
  const [name, setName] = useState(campaign?.name ?? '');
  const [audienceType, setAudienceType] = useState<'all' | 'tags'>(campaign?.audience.type === 'tags' ? 'tags' : 'all');
  const [tags, setTags] = useState<string[]>(campaign?.audience.type === 'tags' ? campaign.audience.tags : []);
  const [message, setMessage] = useState(campaign?.message ?? '');
  const [useTemplate, setUseTemplate] = useState(Boolean(campaign?.whatsappTemplate));
  const [template, setTemplate] = useState<WhatsappTemplatePick | null>(
    campaign?.whatsappTemplate
      ? { contentSid: campaign.whatsappTemplate.contentSid, variables: campaign.whatsappTemplate.variables ?? {} }
      : null,
  );
  const [sendAt, setSendAt] = useState(campaign?.sendAt ?? '');
  const [mediaUrl, setMediaUrl] = useState(campaign?.mediaUrl ?? '');
  const [quiet, setQuiet] = useState(Boolean(campaign?.quietHours));
  const [quietStart, setQuietStart] = useState(campaign?.quietHours?.start ?? '21:00');
  const [quietEnd, setQuietEnd] = useState(campaign?.quietHours?.end ?? '08:00');
  const [sequence, setSequence] = useState(() => sequenceDraftOf(campaign));
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const body: TCampaignInput = {
    ...sequencePayload(sequence),
    name,
    audience: audienceType === 'tags' ? { type: 'tags', tags } : { type: 'all' },
    message,
    whatsappTemplate: whatsapp && useTemplate && template ? template : null,
    mediaUrl: mediaUrl.trim() || null,
    sendAt: sendAt || null,
    quietHours: quiet ? { start: quietStart, end: quietEnd } : null,
  };
  const save = useMutation({
    mutationFn: () =>
      campaign
        ? api<TCampaign>(`/api/channels/${connection.connectionId}/campaigns/${campaign.campaignId}`, {
            method: 'PUT',
            body,
            silent: true,
          })
        : api<TCampaign>(`/api/channels/${connection.connectionId}/campaigns`, { body, silent: true }),
    onSuccess: onSaved,
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 422)
        setError({ field: failure.field?.replace(/^body\./, ''), message: failure.message });
      else showErrorDialog(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (whatsapp && useTemplate && !template) {
      setError({ field: 'whatsappTemplate.contentSid', message: 'Choose an approved template' });
      return;
    }
    save.mutate();
  };
  const encoding = smsEncoding(message);
  const variables = templateVariables(message);
  const errorFor = (...fields: string[]) =>
    error && fields.some((f) => error.field?.startsWith(f)) ? error.message : null;

  return (
    <Card>
      <h2 className="text-lg font-semibold">{campaign ? 'Edit campaign' : 'New campaign'}</h2>
      <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
        <div>
          <Label htmlFor="campaign-name">Name</Label>
          <Input id="campaign-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
          <FieldError>{errorFor('name')}</FieldError>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">Audience</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="audience"
                checked={audienceType === 'all'}
                onChange={() => setAudienceType('all')}
              />{' '}
              All contacts
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="audience"
                checked={audienceType === 'tags'}
                onChange={() => setAudienceType('tags')}
              />{' '}
              Contacts with tags
            </label>
          </div>
          {audienceType === 'tags' ? (
            <div className="mt-2 flex flex-wrap gap-2">
              {(contacts.data?.tags ?? []).map((tag) => (
                <label
                  key={tag}
                  className="flex items-center gap-1 rounded-full border border-border px-3 py-1 text-sm"
                >
                  <input
                    type="checkbox"
                    checked={tags.includes(tag)}
                    onChange={(e) => setTags(e.target.checked ? [...tags, tag] : tags.filter((t) => t !== tag))}
                  />
                  {tag}
                </label>
              ))}
              {!contacts.data?.tags.length ? (
                <p className="text-sm text-muted">No tags yet. Tag contacts when you import them.</p>
              ) : null}
            </div>
          ) : null}
          <FieldError>{errorFor('audience')}</FieldError>
        </fieldset>
        {whatsapp ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={useTemplate} onChange={(e) => setUseTemplate(e.target.checked)} />
            Send an approved WhatsApp template (needed for contacts who have not written in the last 24 hours)
          </label>
        ) : null}
        {whatsapp && useTemplate ? (
          <WhatsappTemplatePicker
            connectionId={connection.connectionId}
            value={template}
            onChange={setTemplate}
            errorFor={errorFor}
          />
        ) : (
          <div>
            <Label htmlFor="campaign-message">Message</Label>
            <Textarea
              id="campaign-message"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              maxLength={1600}
              placeholder="Hi {{first_name}}, ..."
              aria-describedby="campaign-message-help"
            />
            <p id="campaign-message-help" className="mt-1 text-xs text-muted">
              {whatsapp
                ? `${message.length} characters.`
                : `${encoding.units} characters, ${encoding.encoding}, ${encoding.segments} SMS segment${encoding.segments === 1 ? '' : 's'} per contact.`}{' '}
              Variables: {'{{first_name}}'}, {'{{name}}'}, {'{{phone}}'} and imported columns.
              {variables.length ? ` Used: ${variables.join(', ')}.` : ''}
            </p>
            <FieldError>{errorFor('message')}</FieldError>
          </div>
        )}
        <div>
          <Label htmlFor="campaign-media">Image or PDF to attach (https address, optional)</Label>
          <div className="flex flex-wrap items-start gap-2">
            <Input
              id="campaign-media"
              className="min-w-0 flex-1"
              value={mediaUrl}
              onChange={(e) => setMediaUrl(e.target.value)}
              placeholder="https://..."
            />
            <MediaUpload connectionId={connection.connectionId} onUploaded={(media) => setMediaUrl(media.url)} />
          </div>
          <FieldError>{errorFor('mediaUrl')}</FieldError>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor="campaign-send-at">Send at (sub-account time zone; empty = when started)</Label>
            <Input
              id="campaign-send-at"
              type="datetime-local"
              value={sendAt}
              onChange={(e) => setSendAt(e.target.value)}
            />
            <FieldError>{errorFor('sendAt')}</FieldError>
          </div>
          <label className="flex items-center gap-2 self-end pb-2 text-sm">
            <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} /> Quiet hours
            (contact’s local time)
          </label>
          {quiet ? (
            <div className="flex gap-2">
              <div>
                <Label htmlFor="quiet-start">From</Label>
                <Input
                  id="quiet-start"
                  type="time"
                  value={quietStart}
                  onChange={(e) => setQuietStart(e.target.value)}
                />
              </div>
              <div>
                <Label htmlFor="quiet-end">Until</Label>
                <Input id="quiet-end" type="time" value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} />
              </div>
            </div>
          ) : null}
        </div>
        <SequenceEditor draft={sequence} onChange={setSequence} error={error} />
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending}>
            Save draft
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
};

/** The editor of a new campaign, or of a saved one once its steps are loaded. */
const EditorFor = ({
  connection,
  campaignId,
  onSaved,
  onCancel,
}: {
  connection: TChannelConnection;
  campaignId: string | null;
  onSaved: (campaign: TCampaign) => void;
  onCancel: () => void;
}) => {
  const detail = useCampaignDetail(connection.connectionId, campaignId);
  if (campaignId && !detail.data)
    return (
      <Card>
        <p className="text-sm text-muted" role="status">
          {detail.isError ? 'The campaign could not be loaded.' : 'Loading the campaign…'}
        </p>
      </Card>
    );
  return <Editor connection={connection} campaign={detail.data ?? null} onSaved={onSaved} onCancel={onCancel} />;
};

/** The campaigns of a connection with their live figures, the editor and one campaign's detail. */
export const CampaignsTab = ({ connection, canEdit }: { connection: TChannelConnection; canEdit: boolean }) => {
  const client = useQueryClient();
  const campaigns = useCampaigns(connection.connectionId);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const list = campaigns.data?.campaigns ?? [];
  const current = list.find((c) => c.campaignId === selected) ?? null;
  const saved = (campaign: TCampaign) => {
    setEditing(null);
    setSelected(campaign.campaignId);
    void client.invalidateQueries({ queryKey: ['channel', connection.connectionId, 'campaigns'] });
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.3fr)]">
      <Card className="p-0">
        <div className="flex items-center border-b border-border px-4 py-3">
          <h2 className="flex-1 font-semibold">Campaigns</h2>
          {canEdit ? (
            <Button size="sm" onClick={() => setEditing('new')}>
              New campaign
            </Button>
          ) : null}
        </div>
        {!list.length && !campaigns.isLoading ? <p className="p-4 text-sm text-muted">No campaigns yet.</p> : null}
        <ul aria-label="Campaigns">
          {list.map((campaign) => (
            <li key={campaign.campaignId}>
              <button
                type="button"
                onClick={() => {
                  setSelected(campaign.campaignId);
                  setEditing(null);
                }}
                aria-current={campaign.campaignId === selected ? 'true' : undefined}
                className="w-full border-b border-border px-4 py-3 text-left hover:bg-surface-2"
              >
                <span className="flex items-center gap-2">
                  <span className="flex-1 font-medium">{campaign.name}</span>
                  <span className="text-xs text-muted">{STATUS_LABELS[campaign.status]}</span>
                </span>
                <span className="mt-1 block text-xs text-muted">
                  {campaign.figures.sent}/{campaign.figures.total} sent · {campaign.figures.delivered} delivered ·{' '}
                  {campaign.figures.failed} failed · {campaign.figures.replied} replied · {campaign.figures.optedOut}{' '}
                  opted out
                  {campaign.figures.unconfirmed ? ` · ${campaign.figures.unconfirmed} unconfirmed` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </Card>
      <div>
        {editing ? (
          <EditorFor
            key={editing}
            connection={connection}
            campaignId={editing === 'new' ? null : editing}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        ) : current ? (
          <CampaignReport
            connection={connection}
            campaign={current}
            canEdit={canEdit}
            onEdit={() => setEditing(current.campaignId)}
            onCloned={saved}
          />
        ) : (
          <Card>
            <p className="text-sm text-muted">Pick a campaign to see its figures, or create one.</p>
          </Card>
        )}
      </div>
    </div>
  );
};
