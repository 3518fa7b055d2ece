/** The visitor's widget data in the browser, per widget (spec section 3, Visitor widget storage). */
import { cutText, VISITOR } from '@switchboard/core/widget/constants';

export interface ChatMessage {
  id: string;
  content: string;
  sender: 'user' | 'agent';
  timestamp: number;
  /** A reply a person wrote in the inbox. */
  human?: boolean;
}

export interface SavedConversation {
  id: string;
  timestamp: number;
  lastMessage: string;
  messageCount: number;
  messages: ChatMessage[];
  widgetTitle: string;
  aiName: string;
  openAIThreadId: string | null;
  dbThreadId: string | null;
}

export interface ActiveChat {
  id: string;
  messages: ChatMessage[];
  lastActivity: number;
}

export interface Session {
  widgetId: string;
  version: 1;
  lastUpdated: number;
  contactIdentifier: string;
  openAIThreadId: string | null;
  dbThreadId: string | null;
  activeChat: ActiveChat;
  isOpen: boolean;
  showMessages: boolean;
  showChatList: boolean;
  scrollPosition: number;
  widgetTitle: string;
  aiName: string;
  sessionStarted: number;
}

/** Where the visitor's data is kept: the host page's storage (through the loader) or this frame's. */
export interface StorageBackend {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

/** This frame's own localStorage, or memory when the browser denies it (third-party storage blocked). */
export const frameBackend = (): StorageBackend => {
  const memory = new Map<string, string>();
  return {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch {
        return memory.get(key) ?? null;
      }
    },
    set(key, value) {
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch {
        if (value === null) memory.delete(key);
        else memory.set(key, value);
      }
    },
  };
};

/** The host page's storage: a snapshot the loader sends at start, and every write sent back to it. */
export const hostBackend = (
  snapshot: Record<string, string>,
  send: (key: string, value: string | null) => void,
): StorageBackend => {
  const data = new Map(Object.entries(snapshot));
  return {
    get: (key) => data.get(key) ?? null,
    set(key, value) {
      if (value === null) data.delete(key);
      else data.set(key, value);
      send(key, value);
    },
  };
};

export const newLocalId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A saved sender of `ai` (older data) is treated as `agent`. */
const normalise = (messages: ChatMessage[]): ChatMessage[] =>
  messages.map((m) => ({ ...m, sender: m.sender === 'user' ? 'user' : 'agent' }));

export const createStore = (widgetId: string, backend: StorageBackend) => {
  const key = (name: string) => `sbw:${widgetId}:${name}`;
  const read = <T>(name: string): T | null => {
    try {
      const raw = backend.get(name);
      return raw ? (JSON.parse(raw) as T) : null;
    } catch {
      return null;
    }
  };
  const write = (name: string, value: unknown) => backend.set(name, value === null ? null : JSON.stringify(value));
  return {
    /** The visitor's identifier for this widget: preview_ + time + random text. */
    contactIdentifier(): string {
      let id = read<string>(key('contact'));
      if (!id) {
        id = `preview_${Date.now()}_${Math.random().toString(36).slice(2, 11)}`;
        write(key('contact'), id);
      }
      return id;
    },
    loadSession(): Session | null {
      const session = read<Session>(key('session'));
      if (!session || session.version !== VISITOR.storageVersion || session.widgetId !== widgetId) return null;
      session.activeChat.messages = normalise(session.activeChat.messages ?? []);
      return session;
    },
    saveSession(session: Session | null) {
      write(key('session'), session ? { ...session, lastUpdated: Date.now() } : null);
    },
    conversations(): SavedConversation[] {
      return (read<SavedConversation[]>(key('conversations')) ?? []).map((c) => ({
        ...c,
        messages: normalise(c.messages ?? []),
      }));
    },
    /** Saves or updates a conversation: newest first, at most 10 (the oldest is dropped). */
    saveConversation(conversation: SavedConversation) {
      const rest = this.conversations().filter((c) => c.id !== conversation.id);
      write(key('conversations'), [conversation, ...rest].slice(0, VISITOR.maxSavedConversations));
    },
    deleteConversation(id: string) {
      write(
        key('conversations'),
        this.conversations().filter((c) => c.id !== id),
      );
    },
  };
};
export type Store = ReturnType<typeof createStore>;

/** Worth keeping: more than one message and at least one from the visitor. */
export const worthSaving = (messages: ChatMessage[]) =>
  messages.length > 1 && messages.some((m) => m.sender === 'user');

export const toSaved = (
  chat: ActiveChat,
  ids: { openAIThreadId: string | null; dbThreadId: string | null },
  names: { widgetTitle: string; aiName: string },
): SavedConversation => {
  const last = chat.messages[chat.messages.length - 1];
  return {
    id: chat.id,
    timestamp: last?.timestamp ?? Date.now(),
    lastMessage: cutText(last?.content ?? '', VISITOR.lastMessageCut),
    messageCount: chat.messages.length,
    messages: chat.messages,
    ...names,
    ...ids,
  };
};

export const isExpired = (chat: ActiveChat, now = Date.now()) => now - chat.lastActivity >= VISITOR.sessionLifetimeMs;
