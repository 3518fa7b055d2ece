import type { TChannelConnection, TInstagramPageChoice } from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';

/** The pages "Connect with Meta" shared, when there are several to choose from (404: nothing to choose). */
export const useInstagramPageChoice = (connectionId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['instagram-pages', connectionId],
    queryFn: () =>
      api<TInstagramPageChoice>(`/api/channels/${connectionId}/instagram/pages`, { silent: true }).catch(
        (failure: unknown) => {
          if (failure instanceof ApiError && failure.status === 404) return null;
          throw failure;
        },
      ),
    enabled,
    retry: false,
  });

/**
 * Several Facebook pages with an Instagram account were shared with Meta: the agency picks the one
 * this agent answers for. The page is subscribed to the messaging webhooks when it is picked.
 */
export const InstagramPagePicker = ({
  connection,
  choice,
}: {
  connection: TChannelConnection;
  choice: TInstagramPageChoice;
}) => {
  const client = useQueryClient();
  const [pageId, setPageId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const pick = useMutation({
    mutationFn: (body: { pageId: string }) =>
      api<TChannelConnection>(`/api/channels/${connection.connectionId}/instagram/page`, {
        method: 'POST',
        body,
        silent: true,
      }),
    onSuccess: () => {
      toast.success('Instagram account connected');
      void client.invalidateQueries({ queryKey: ['channels', connection.subaccountId, 'instagram'] });
      void client.invalidateQueries({ queryKey: ['instagram-pages', connection.connectionId] });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500) setError(failure.message);
      else showErrorDialog(failure);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!pageId) return setError('Pick the page this agent answers for.');
    pick.mutate({ pageId });
  };
  return (
    <Card className="mb-5">
      <form onSubmit={submit} aria-labelledby="instagram-page-title">
        <h2 id="instagram-page-title" className="font-semibold">
          Choose the Instagram account
        </h2>
        <p className="mt-1 text-sm text-muted">
          Several Facebook pages with an Instagram professional account were shared with Meta. Pick the one this agent
          answers; its page is then subscribed to Instagram direct messages.
        </p>
        <fieldset className="mt-3 space-y-2">
          <legend className="sr-only">Facebook page and Instagram account</legend>
          {choice.pages.map((page) => (
            <label
              key={page.pageId}
              className="flex cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 hover:bg-surface-2"
            >
              <input
                type="radio"
                name="instagram-page"
                value={page.pageId}
                checked={pageId === page.pageId}
                onChange={() => setPageId(page.pageId)}
              />
              <span className="min-w-0">
                <span className="block truncate font-medium">
                  {page.username ? `@${page.username}` : page.instagramAccountId}
                </span>
                <span className="block truncate text-sm text-muted">Page: {page.pageName ?? page.pageId}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
        <Button type="submit" className="mt-3" disabled={pick.isPending}>
          {pick.isPending ? 'Connecting…' : 'Connect this account'}
        </Button>
      </form>
    </Card>
  );
};
