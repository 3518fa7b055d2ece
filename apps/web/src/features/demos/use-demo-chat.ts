import { DEMO_MESSAGES, DEMO_WELCOME_MESSAGE_ID, type TDemoSettings } from '@switchboard/core';
import { useCallback, useRef, useState } from 'react';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';

/** A demo chat message (section 3); the welcome message has id '1'. */
export interface DemoChatMessage {
  id: string;
  type: 'bot' | 'user';
  content: string;
  timestamp: number;
  failed?: boolean;
}

interface DemoChatReply {
  response?: string;
  message?: string;
  content?: string;
  thread_id?: string;
  threadId?: string;
  requestCount?: number;
  humanHandled?: boolean;
  error?: string;
}

const initialMessages = (settings: TDemoSettings): DemoChatMessage[] =>
  settings.showWelcomeMessage && settings.welcomeMessage.trim()
    ? [{ id: DEMO_WELCOME_MESSAGE_ID, type: 'bot', content: settings.welcomeMessage, timestamp: Date.now() }]
    : [];

/** The failure message of section 8 for an HTTP status and the error field. */
export const demoChatStatusMessage = (status: number, message?: string): string => {
  if (status === 429) return DEMO_MESSAGES.limitReached;
  if (status === 404) return DEMO_MESSAGES.notFound;
  return message || DEMO_MESSAGES.failed;
};

/** The failure message of section 8 for a failed demo-chat call. */
export const demoChatErrorMessage = (error: unknown): string => {
  if (error instanceof ApiError) return demoChatStatusMessage(error.status, error.message);
  if (error instanceof Error && error.message) return error.message;
  return DEMO_MESSAGES.failed;
};

let counter = 0;
const nextId = () => {
  counter += 1;
  return `${Date.now()}-${counter}`;
};

/**
 * The demo conversation (section 4): starts with the welcome message or empty, sends with the
 * typing indicator and input disabled, keeps the thread id, and clears back to the start.
 */
export const useDemoChat = (
  demoId: string,
  settings: TDemoSettings,
  options: { simple?: boolean; onCount?: (count: number) => void; live?: boolean } = {},
) => {
  const [messages, setMessages] = useState<DemoChatMessage[]>(() => initialMessages(settings));
  const [pending, setPending] = useState(false);
  const threadId = useRef<string | null>(null);
  const welcomeKey = `${settings.showWelcomeMessage}|${settings.welcomeMessage}`;
  const lastWelcome = useRef(welcomeKey);
  if (lastWelcome.current !== welcomeKey) {
    lastWelcome.current = welcomeKey;
    // The editor's live preview restarts when the welcome message changes.
    const fresh = initialMessages(settings);
    if (messages.every((message) => message.id === DEMO_WELCOME_MESSAGE_ID)) setMessages(fresh);
  }

  const send = useCallback(
    async (raw: string) => {
      const text = raw.trim();
      if (!text || pending) return;
      const user: DemoChatMessage = { id: nextId(), type: 'user', content: text, timestamp: Date.now() };
      const history = [...messages, user]
        .filter((message) => message.id !== DEMO_WELCOME_MESSAGE_ID && !message.failed)
        .map((message) => ({ role: message.type === 'user' ? 'user' : 'assistant', content: message.content.trim() }))
        .filter((entry) => entry.content.length > 0);
      setMessages((current) => [...current, user]);
      setPending(true);
      try {
        const reply = await api<DemoChatReply>('/api/demo-chat', {
          method: 'POST',
          silent: true,
          body: { message: text, threadId: threadId.current, demoId, history, messages: history },
        });
        const answer = reply.response ?? reply.message ?? reply.content ?? '';
        if (reply.error) throw new Error(reply.error);
        threadId.current = reply.thread_id ?? reply.threadId ?? threadId.current;
        // A person took the conversation over: their answer arrives in the inbox, not here.
        if (reply.humanHandled) return;
        if (!answer.trim()) throw new Error(DEMO_MESSAGES.empty);
        threadId.current = reply.thread_id ?? reply.threadId ?? threadId.current;
        if (typeof reply.requestCount === 'number') options.onCount?.(reply.requestCount);
        setMessages((current) => [...current, { id: nextId(), type: 'bot', content: answer, timestamp: Date.now() }]);
      } catch (error) {
        const message = demoChatErrorMessage(error);
        toast.error(message);
        setMessages((current) => [
          ...current,
          {
            id: nextId(),
            type: 'bot',
            content: options.simple ? `Error: ${message}` : DEMO_MESSAGES.apology,
            timestamp: Date.now(),
            failed: true,
          },
        ]);
      } finally {
        setPending(false);
      }
    },
    [demoId, messages, pending, options],
  );

  const clear = useCallback(() => {
    threadId.current = null;
    setMessages(initialMessages(settings));
  }, [settings]);

  return { messages, pending, send, clear };
};
