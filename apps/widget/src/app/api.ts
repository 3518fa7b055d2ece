/** The widget's calls to the server (spec section 7): chat (streamed), conversations, live replies. */
export interface ChatResult {
  message: string;
  threadId: string;
  widgetConversationThreadId: string;
  newWidgetConversationThreadId?: string;
  humanHandled: boolean;
}

export interface ChatBody {
  message: string;
  threadId: string | null;
  widgetConversationThreadId: string | null;
  contactIdentifier: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  /** The host site's signed-in user with the HMAC of its id (Switchboard.identify). */
  identity?: Record<string, unknown>;
  /** What the host page told the agent (Switchboard.setContext). */
  context?: Record<string, unknown>;
}

export class ChatError extends Error {}

/** The page that embeds us, sent so the server can check the widget's allowed domains. */
let hostOrigin = '';
export const setHostOrigin = (origin: string) => {
  hostOrigin = origin;
};
export const detectHostOrigin = (): string => {
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors?.length) return ancestors[0] ?? '';
  try {
    return document.referrer ? new URL(document.referrer).origin : '';
  } catch {
    return '';
  }
};
const headers = (extra: Record<string, string> = {}) =>
  hostOrigin ? { 'x-widget-host': hostOrigin, ...extra } : extra;

const failure = async (response: Response): Promise<never> => {
  let message = '';
  try {
    message = ((await response.json()) as { error?: { message?: string } }).error?.message ?? '';
  } catch {
    message = '';
  }
  throw new ChatError(message || `API request failed with status: ${response.status}`);
};

/** Sends a message; reply text arrives through onDelta as it is generated. */
export const sendChat = async (
  widgetId: string,
  body: ChatBody,
  onDelta: (text: string) => void,
): Promise<ChatResult> => {
  const response = await fetch(`/api/widget/${encodeURIComponent(widgetId)}/chat`, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify(body),
  });
  if (!response.ok) return failure(response);
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const json = (await response.json()) as ChatResult & { error?: string };
    if (json.error) throw new ChatError(json.error);
    return json;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (!event || !data) continue;
      const payload = JSON.parse(data);
      if (event === 'delta') onDelta(payload.text);
      else if (event === 'done') return payload as ChatResult;
      else if (event === 'error')
        throw new ChatError(payload.error?.message || `API request failed with status: ${payload.status}`);
    }
  }
  throw new ChatError('No message in API response');
};

export interface LiveConversation {
  threadId: string;
  lastMessage: string;
  lastMessageTime: string;
  totalMessages: number;
  customerNumber: string;
  unreadCount: number;
  status: string;
}

export const fetchConversations = async (widgetId: string, contactIdentifier: string): Promise<LiveConversation[]> => {
  const response = await fetch(
    `/api/widget/${encodeURIComponent(widgetId)}/conversations?contactIdentifier=${encodeURIComponent(contactIdentifier)}`,
    { headers: headers() },
  );
  if (!response.ok) return [];
  return ((await response.json()) as { conversations: LiveConversation[] }).conversations;
};

export interface ServerMessage {
  id: string;
  role: 'user' | 'assistant' | 'human';
  content: string;
  createdAt: string;
}

export const fetchThreadMessages = async (widgetId: string, threadId: string, contactIdentifier: string) => {
  const response = await fetch(
    `/api/widget/${encodeURIComponent(widgetId)}/threads/${encodeURIComponent(threadId)}/messages?contactIdentifier=${encodeURIComponent(contactIdentifier)}`,
    { headers: headers() },
  );
  if (!response.ok) return null;
  return (await response.json()) as { humanHandled: boolean; messages: ServerMessage[] };
};

/** Replies a person sends from the inbox, live. Returns a function that stops listening. */
export const listenForHumanReplies = (
  widgetId: string,
  threadId: string,
  contactIdentifier: string,
  onMessage: (message: ServerMessage) => void,
): (() => void) => {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(
    `/api/widget/${encodeURIComponent(widgetId)}/threads/${encodeURIComponent(threadId)}/events?contactIdentifier=${encodeURIComponent(contactIdentifier)}`,
  );
  source.addEventListener('message', (event) => onMessage(JSON.parse((event as MessageEvent).data)));
  return () => source.close();
};
