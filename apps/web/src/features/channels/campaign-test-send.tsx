import type { TCampaignTestSendResponse } from '@switchboard/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { storage } from '../../lib/storage';

const KEY = 'campaign-test-number';

/** Sends the campaign's message once to the agency's own number, outside the campaign. */
export const CampaignTestSend = ({ connectionId, campaignId }: { connectionId: string; campaignId: string }) => {
  const [to, setTo] = useState(() => storage.get<string>(KEY, ''));
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () =>
      api<TCampaignTestSendResponse>(`/api/channels/${connectionId}/campaigns/${campaignId}/test-send`, {
        body: { to },
        silent: true,
      }),
    onSuccess: (data) => storage.set(KEY, data.to),
    onError: (failure) => setError(failure instanceof Error ? failure.message : 'The test was not sent.'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (to.trim()) send.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-4 rounded-lg border border-border p-3" noValidate>
      <Label htmlFor={`test-send-${campaignId}`}>Send a test to your number first</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={`test-send-${campaignId}`}
          type="tel"
          autoComplete="tel"
          value={to}
          onChange={(event) => setTo(event.target.value)}
          placeholder="+15555555555"
          className="min-w-0 flex-1"
          aria-describedby={`test-send-note-${campaignId}`}
        />
        <Button type="submit" variant="secondary" disabled={!to.trim() || send.isPending}>
          Send test
        </Button>
      </div>
      <p id={`test-send-note-${campaignId}`} className="mt-1 text-xs text-muted">
        {send.data
          ? `${send.data.sandbox ? 'Sandbox: sent to the sandbox phone only' : 'Sent'} to ${send.data.to}. It does not count in the campaign.`
          : 'One message with this campaign’s text; it does not count in the campaign. At most 5 tests every 10 minutes.'}
      </p>
      <FieldError>{error}</FieldError>
    </form>
  );
};
