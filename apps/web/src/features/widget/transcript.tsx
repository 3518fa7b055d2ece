import { contactLabel, type TChannelMedia, type TInboxTranscript } from '@switchboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Markdown } from '../../components/markdown';
import { ToolCallList } from '../../components/tool-calls';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { MediaUpload } from '../channels/media-upload';
import { WhatsappReplyGate } from '../channels/whatsapp-templates-inbox';
import { AddToTestSet } from '../evaluation/add-to-test-set';
import { ReplyField } from '../inbox/reply-field';

const WHO = { user: 'Visitor', assistant: 'Agent', human: 'Team' } as const;

/** One conversation: messages, take-over / hand back, and a person's reply. */
export const Transcript = ({
  connectionId,
  transcript,
  canReply,
  canAttach = false,
  whatsapp = false,
}: {
  connectionId: string;
  transcript: TInboxTranscript;
  canReply: boolean;
  canAttach?: boolean;
  /** A WhatsApp thread: the 24-hour window's countdown, and approved templates once it has closed. */
  whatsapp?: boolean;
}) => {
  const client = useQueryClient();
  const [reply, setReply] = useState('');
  const [attachment, setAttachment] = useState<TChannelMedia | null>(null);
  const { thread } = transcript;
  const url = `/api/connections/${connectionId}/conversations/${thread.threadId}`;
  const refresh = (data: TInboxTranscript) => {
    client.setQueryData(['transcript', connectionId, thread.threadId], data);
    void client.invalidateQueries({ queryKey: ['inbox', connectionId] });
  };
  const takeover = useMutation({
    mutationFn: (takeOver: boolean) => api<TInboxTranscript>(`${url}/takeover`, { body: { takeOver } }),
    onSuccess: refresh,
  });
  const send = useMutation({
    mutationFn: (content: string) =>
      api<TInboxTranscript>(`${url}/messages`, {
        body: { content, ...(attachment ? { mediaUrls: [attachment.url] } : {}) },
      }),
    onSuccess: (data) => {
      setReply('');
      setAttachment(null);
      refresh(data);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reply.trim() && !send.isPending) send.mutate(reply.trim());
  };
  const handled = Boolean(thread.handledByUserId);

  return (
    <Card className="flex min-h-[60vh] min-w-0 flex-col p-0">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-border px-4 py-3">
        <div>
          <h2 className="font-semibold">
            {contactLabel(thread).title}
            {contactLabel(thread).detail ? (
              <span className="ml-2 text-sm font-normal text-muted">{contactLabel(thread).detail}</span>
            ) : null}
          </h2>
          <p className="text-xs text-muted">
            {handled ? 'A person is answering; the agent stays silent.' : 'The agent is answering.'}
          </p>
        </div>
        {canReply ? (
          <div className="flex flex-wrap gap-2">
            <AddToTestSet threadId={thread.threadId} />
            <Button
              variant={handled ? 'secondary' : 'primary'}
              size="sm"
              disabled={takeover.isPending}
              onClick={() => takeover.mutate(!handled)}
            >
              {handled ? 'Hand back to agent' : 'Take over'}
            </Button>
          </div>
        ) : null}
      </div>
      <ol aria-label="Transcript" className="flex-1 space-y-3 overflow-y-auto p-4">
        {transcript.messages.map((message) => (
          <li key={message.id} className={cn('flex flex-col', message.role === 'user' ? 'items-start' : 'items-end')}>
            <span className="text-xs text-muted">{message.source === 'campaign' ? 'Campaign' : WHO[message.role]}</span>
            <div
              className={cn(
                'max-w-[80%] min-w-0 rounded-2xl px-3 py-2 text-sm break-words [overflow-wrap:anywhere]',
                message.role === 'user'
                  ? 'bg-surface-2'
                  : message.role === 'human'
                    ? 'bg-primary text-primary-foreground'
                    : 'border border-border',
              )}
            >
              {message.role === 'user' ? (
                <p className="whitespace-pre-wrap">{message.content}</p>
              ) : (
                <Markdown text={message.content} />
              )}
            </div>
            {message.toolCalls.length ? <ToolCallList calls={message.toolCalls} className="max-w-[80%]" /> : null}
          </li>
        ))}
      </ol>
      <WhatsappReplyGate
        enabled={whatsapp}
        connectionId={connectionId}
        threadId={thread.threadId}
        contactName={thread.contactName ?? null}
        canReply={canReply}
      >
        {canReply ? (
          <form onSubmit={submit} className="flex flex-wrap gap-2 border-t border-border p-3">
            {canAttach ? (
              <div className="flex w-full flex-wrap items-center gap-2">
                {attachment ? (
                  <>
                    <span className="text-sm">
                      Attached: <span className="font-medium">{attachment.fileName}</span>
                    </span>
                    <Button size="sm" variant="ghost" onClick={() => setAttachment(null)}>
                      Remove attachment
                    </Button>
                  </>
                ) : (
                  <MediaUpload connectionId={connectionId} label="Attach a file" onUploaded={setAttachment} />
                )}
              </div>
            ) : null}
            <ReplyField
              aria-label="Reply to the visitor"
              placeholder={
                handled
                  ? 'Reply to the visitor... (type / for canned replies)'
                  : 'Reply to take over the conversation... (type / for canned replies)'
              }
              value={reply}
              onValueChange={setReply}
              className="min-w-0 flex-1"
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey) submit(event);
              }}
            />
            <Button type="submit" disabled={!reply.trim() || send.isPending}>
              Send
            </Button>
          </form>
        ) : null}
      </WhatsappReplyGate>
    </Card>
  );
};
