import type { TMessageSource, TToolCallView } from '@switchboard/core';

export interface ChatDone {
  threadId: string;
  message: string;
  sources: TMessageSource[];
  toolCalls: TToolCallView[];
  offline: boolean;
  model: string;
}

/**
 * Sends a test-chat turn and reads the server-sent events of the reply: `delta` events carry
 * text as it arrives, `done` the stored reply, `error` a failure after streaming began.
 * A failure before the stream starts is the usual JSON error envelope.
 */
export const streamChat = async (
  agentId: string,
  body: { message: string; threadId: string | null },
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<ChatDone> => {
  const response = await fetch(`/api/agents/${encodeURIComponent(agentId)}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    credentials: 'include',
    signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let message = `Request failed with status ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // Keep the status message.
    }
    throw new Error(message);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let done: ChatDone | null = null;
  for (;;) {
    const { value, done: finished } = await reader.read();
    if (finished) break;
    buffer += value;
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      boundary = buffer.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!data) continue;
      const parsed = JSON.parse(data) as Record<string, unknown>;
      if (event === 'delta') onDelta(String(parsed.text ?? ''));
      else if (event === 'done') done = parsed as unknown as ChatDone;
      else if (event === 'error') {
        throw new Error((parsed.error as { message?: string } | undefined)?.message ?? 'The reply failed');
      }
    }
  }
  if (!done) throw new Error('The reply ended before it was complete');
  return done;
};
