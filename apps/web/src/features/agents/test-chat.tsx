import { OFFLINE_MODEL_LABEL, type TAgent, type TMessageSource, type TToolCallView } from '@switchboard/core';
import { FileText, RotateCcw, Send } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Markdown } from '../../components/markdown';
import { shortValue, ToolCallList } from '../../components/tool-calls';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { toast } from '../../lib/toast';
import { streamChat } from './stream-chat';

interface ChatLine {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  offline?: boolean;
  model?: string;
  sources?: TMessageSource[];
  toolCalls?: TToolCallView[];
  pending?: boolean;
}

/** The agent page's test chat: replies stream in, with the tools called and the sources used. */
export const TestChat = ({ agent, canChat }: { agent: TAgent; canChat: boolean }) => {
  const greeting: ChatLine[] = agent.firstMessage
    ? [{ id: 'greeting', role: 'assistant', content: agent.firstMessage }]
    : [];
  const [lines, setLines] = useState<ChatLine[]>(greeting);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  });

  const send = async (text: string) => {
    const message = text.trim();
    if (!message || busy) return;
    setInput('');
    setBusy(true);
    const replyId = `reply-${Date.now()}`;
    setLines((current) => [
      ...current,
      { id: `user-${Date.now()}`, role: 'user', content: message },
      { id: replyId, role: 'assistant', content: '', pending: true },
    ]);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const done = await streamChat(
        agent.id,
        { message, threadId },
        (delta) =>
          setLines((current) =>
            current.map((line) => (line.id === replyId ? { ...line, content: line.content + delta } : line)),
          ),
        controller.signal,
      );
      setThreadId(done.threadId);
      setLines((current) =>
        current.map((line) =>
          line.id === replyId
            ? {
                ...line,
                content: done.message,
                pending: false,
                offline: done.offline,
                model: done.model,
                sources: done.sources,
                toolCalls: done.toolCalls,
              }
            : line,
        ),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'The reply failed';
      toast.error(reason);
      setLines((current) =>
        current.map((line) =>
          line.id === replyId ? { ...line, content: `Sorry, I encountered an error: ${reason}`, pending: false } : line,
        ),
      );
    } finally {
      setBusy(false);
    }
  };

  const reset = () => {
    abortRef.current?.abort();
    setLines(greeting);
    setThreadId(null);
  };

  return (
    <Card className="flex h-[560px] flex-col p-0" aria-label="Test chat">
      <div className="flex items-center justify-between border-b border-border px-4 py-3">
        <h2 className="font-semibold">Test chat</h2>
        <Button size="sm" variant="ghost" onClick={reset} aria-label="New conversation">
          <RotateCcw size={14} aria-hidden="true" /> New
        </Button>
      </div>
      <div ref={listRef} className="flex-1 space-y-3 overflow-y-auto p-4" role="log" aria-live="polite">
        {lines.map((line) => (
          <div key={line.id} className={cn('flex flex-col', line.role === 'user' ? 'items-end' : 'items-start')}>
            <div
              className={cn(
                'max-w-[85%] break-words rounded-2xl px-3 py-2 text-sm',
                line.role === 'user' && 'whitespace-pre-wrap',
                line.role === 'user' ? 'bg-primary text-primary-foreground' : 'bg-surface-2 text-foreground',
              )}
              data-role={line.role}
            >
              {line.role === 'assistant' && line.content ? (
                <Markdown text={line.content} />
              ) : (
                line.content || (line.pending ? 'typing...' : '')
              )}
            </div>
            {line.role === 'assistant' && !line.pending && line.model ? (
              <span className="mt-1 text-xs text-muted">{line.offline ? OFFLINE_MODEL_LABEL : line.model}</span>
            ) : null}
            {line.toolCalls?.length ? <ToolCallList calls={line.toolCalls} /> : null}
            {line.sources?.length ? (
              <details className="mt-1 max-w-[85%] text-xs text-muted">
                <summary className="cursor-pointer">Sources ({line.sources.length})</summary>
                <ul className="mt-1 space-y-1" aria-label="Sources">
                  {line.sources.map((source, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: one document can give several excerpts
                    <li key={`${source.documentId}-${index}`} className="rounded-md border border-border px-2 py-1">
                      <FileText size={12} className="mr-1 inline" aria-hidden="true" />
                      <span className="font-medium text-foreground">{source.name}</span>: {shortValue(source.excerpt)}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </div>
        ))}
      </div>
      {agent.suggestedResponses.length && lines.length <= 1 ? (
        <div className="flex flex-wrap gap-2 px-4 pb-2">
          {agent.suggestedResponses.map((suggestion) => (
            <button
              key={suggestion}
              type="button"
              disabled={!canChat || busy}
              onClick={() => void send(suggestion)}
              className="rounded-full border border-border px-3 py-1 text-xs hover:border-primary"
            >
              {suggestion}
            </button>
          ))}
        </div>
      ) : null}
      <form
        className="flex gap-2 border-t border-border p-3"
        onSubmit={(event) => {
          event.preventDefault();
          void send(input);
        }}
      >
        <label htmlFor="test-chat-input" className="sr-only">
          Test message
        </label>
        <Input
          id="test-chat-input"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder={canChat ? 'Type your message...' : 'Viewers cannot chat with agents'}
          disabled={!canChat}
          autoComplete="off"
        />
        <Button type="submit" size="icon" disabled={!canChat || busy || !input.trim()} aria-label="Send">
          <Send size={16} aria-hidden="true" />
        </Button>
      </form>
    </Card>
  );
};
