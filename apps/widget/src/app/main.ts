/**
 * The chat app inside the widget's iframe: messages, streaming replies, sessions, saved
 * conversations, the previous-conversations screen and the postMessage protocol with the page.
 */
import { VISITOR } from '@switchboard/core/widget/constants';
import { FRAME_SOURCE, type FrameEvent, type HostCommand } from '../protocol';
import {
  ChatError,
  detectHostOrigin,
  fetchThreadMessages,
  listenForHumanReplies,
  sendChat,
  setHostOrigin,
} from './api';
import { readConfig, textsOf } from './config';
import { onColour } from './dom';
import { hostCommandOf } from './host-messages';
import {
  type ActiveChat,
  type ChatMessage,
  createStore,
  frameBackend,
  hostBackend,
  isExpired,
  newLocalId,
  type StorageBackend,
  toSaved,
  worthSaving,
} from './store';
import { STYLES } from './styles';
import { createView } from './view';

const config = readConfig();
const { settings, widgetId } = config;
const texts = textsOf(settings);
const inline = config.mode === 'inline';
/** The origin of the page that embeds this frame, as the browser tells it ('' when it does not). */
const parentOrigin = window.parent !== window ? detectHostOrigin() : '';
setHostOrigin(parentOrigin);

const style = document.createElement('style');
style.textContent = STYLES;
document.head.append(style);
document.documentElement.style.setProperty('--c', settings.themeColor);
document.documentElement.style.setProperty('--on-c', onColour(settings.themeColor));

type Outgoing = FrameEvent extends infer E ? (E extends FrameEvent ? Omit<E, 'source' | 'widgetId'> : never) : never;
const post = (event: Outgoing) => {
  // Only the embedding page hears the frame (its stored data travels in these messages).
  if (window.parent !== window)
    window.parent.postMessage({ source: FRAME_SOURCE, widgetId, ...event }, parentOrigin || '*');
};

/** Starts the chat once the visitor's stored data is available. */
const boot = (backend: StorageBackend) => {
  const store = createStore(widgetId, backend);
  const names = { widgetTitle: texts.title, aiName: texts.aiName };
  const greeting = (): ChatMessage[] =>
    settings.showFirstMessage && texts.firstMessage
      ? [{ id: 'greeting', content: texts.firstMessage, sender: 'agent', timestamp: Date.now() }]
      : [];
  const freshChat = (): ActiveChat => ({ id: newLocalId(), messages: greeting(), lastActivity: Date.now() });

  /** What the host page said about its visitor (identify) and page (setContext); sent with each message. */
  const host: { identity?: Record<string, unknown>; context?: Record<string, unknown> } = {};
  const state = {
    contactIdentifier: store.contactIdentifier(),
    openAIThreadId: null as string | null,
    dbThreadId: null as string | null,
    chat: freshChat(),
    open: inline,
    screen: 'chat' as 'chat' | 'list',
    loading: false,
    unread: 0,
    sessionStarted: Date.now(),
  };

  const persist = () => {
    store.saveSession({
      widgetId,
      version: 1,
      lastUpdated: Date.now(),
      contactIdentifier: state.contactIdentifier,
      openAIThreadId: state.openAIThreadId,
      dbThreadId: state.dbThreadId,
      activeChat: state.chat,
      isOpen: state.open,
      showMessages: state.screen === 'chat',
      showChatList: state.screen === 'list',
      scrollPosition: view.scrollPosition(),
      ...names,
      sessionStarted: state.sessionStarted,
    });
  };

  /** Saves the current chat into the saved list when it is worth keeping. */
  const saveCurrent = () => {
    if (!worthSaving(state.chat.messages)) return;
    store.saveConversation(
      toSaved(state.chat, { openAIThreadId: state.openAIThreadId, dbThreadId: state.dbThreadId }, names),
    );
  };

  let stopListening = () => {};
  const listen = () => {
    stopListening();
    stopListening = () => {};
    if (!state.dbThreadId) return;
    stopListening = listenForHumanReplies(widgetId, state.dbThreadId, state.contactIdentifier, (message) => {
      if (state.chat.messages.some((m) => m.id === message.id)) return;
      addMessage({
        id: message.id,
        content: message.content,
        sender: 'agent',
        human: true,
        timestamp: Date.parse(message.createdAt) || Date.now(),
      });
      if (!state.open) {
        state.unread += 1;
        post({ type: 'unread', count: state.unread });
      }
    });
  };

  const addMessage = (message: ChatMessage) => {
    state.chat.messages.push(message);
    post({ type: 'message', role: message.sender === 'user' ? 'user' : 'agent', content: message.content });
    state.chat.lastActivity = Date.now();
    persist();
    view.render();
  };

  const startFresh = () => {
    stopListening();
    state.chat = freshChat();
    state.openAIThreadId = null;
    state.dbThreadId = null;
    state.sessionStarted = Date.now();
    store.saveSession(null);
    persist();
  };

  const send = async (raw: string) => {
    const message = raw.trim();
    if (!message || state.loading) return;
    const history = state.chat.messages
      .filter((m) => m.id !== 'greeting' && m.content.trim())
      .map((m) => ({ role: m.sender === 'user' ? ('user' as const) : ('assistant' as const), content: m.content }));
    addMessage({ id: newLocalId(), content: message, sender: 'user', timestamp: Date.now() });
    state.loading = true;
    view.render();
    const replyId = newLocalId();
    let streamed = '';
    try {
      const result = await sendChat(
        widgetId,
        {
          message,
          threadId: state.openAIThreadId,
          widgetConversationThreadId: state.dbThreadId,
          contactIdentifier: state.contactIdentifier,
          history: [...history, { role: 'user', content: message }],
          ...(host.identity ? { identity: host.identity } : {}),
          ...(host.context ? { context: host.context } : {}),
        },
        (delta) => {
          streamed += delta;
          view.stream(replyId, streamed);
        },
      );
      const threadChanged = state.dbThreadId !== result.widgetConversationThreadId;
      state.openAIThreadId = result.threadId;
      state.dbThreadId = result.newWidgetConversationThreadId ?? result.widgetConversationThreadId;
      if (threadChanged) listen();
      state.loading = false;
      if (result.message) addMessage({ id: replyId, content: result.message, sender: 'agent', timestamp: Date.now() });
      else if (!result.humanHandled) throw new ChatError('No message in API response');
      else view.render();
    } catch (error) {
      state.loading = false;
      const detail = error instanceof Error && error.message ? ` (Error: ${error.message})` : '';
      addMessage({
        id: replyId,
        content: `Sorry, I'm having trouble connecting.${detail}`,
        sender: 'agent',
        timestamp: Date.now(),
      });
    }
  };

  const setOpen = (open: boolean, notify = true) => {
    if (state.open === open) return;
    if (!open) saveCurrent();
    state.open = open;
    if (open) {
      state.unread = 0;
      post({ type: 'unread', count: 0 });
      post({ type: 'bubble-hide' });
    }
    persist();
    if (notify) post({ type: open ? 'opened' : 'closed' });
    view.render();
    if (open) view.focusInput();
  };

  const view = createView({
    texts,
    settings,
    inline,
    state,
    onSend: (text) => void send(text),
    onClose: () => setOpen(false),
    onNewConversation: () => {
      saveCurrent();
      startFresh();
      state.screen = 'chat';
      view.render();
    },
    onShowList: () => {
      saveCurrent();
      state.screen = 'list';
      persist();
      view.render();
    },
    onBack: () => {
      state.screen = 'chat';
      persist();
      view.render();
    },
    onPick: async (conversation) => {
      let messages = conversation.messages;
      if (!messages.length && conversation.dbThreadId) {
        const remote = await fetchThreadMessages(widgetId, conversation.dbThreadId, state.contactIdentifier);
        messages = (remote?.messages ?? []).map((m) => ({
          id: m.id,
          content: m.content,
          sender: m.role === 'user' ? 'user' : 'agent',
          human: m.role === 'human',
          timestamp: Date.parse(m.createdAt),
        }));
      }
      state.screen = 'chat';
      if (!messages.length) {
        console.warn('Switchboard widget: this conversation has no messages', conversation.id);
        view.render();
        return;
      }
      saveCurrent();
      state.chat = { id: conversation.id, messages, lastActivity: Date.now() };
      state.openAIThreadId = conversation.openAIThreadId;
      state.dbThreadId = conversation.dbThreadId;
      listen();
      persist();
      view.render();
    },
    onDelete: (id) => {
      store.deleteConversation(id);
      view.render();
    },
    store,
  });

  /** Restores a valid session; an expired one is archived and a fresh chat starts. */
  const restore = () => {
    const session = store.loadSession();
    if (!session) return;
    if (isExpired(session.activeChat)) {
      if (worthSaving(session.activeChat.messages)) {
        store.saveConversation(toSaved(session.activeChat, session, names));
      }
      store.saveSession(null);
      return;
    }
    state.chat = session.activeChat;
    state.openAIThreadId = session.openAIThreadId;
    state.dbThreadId = session.dbThreadId;
    state.sessionStarted = session.sessionStarted;
    state.screen = session.showChatList ? 'list' : 'chat';
    if (!inline && session.isOpen) state.open = true;
    view.render();
    view.scrollTo(session.scrollPosition);
    listen();
    // Replies a person sent while this page was closed.
    if (state.dbThreadId) {
      void fetchThreadMessages(widgetId, state.dbThreadId, state.contactIdentifier).then((remote) => {
        for (const m of remote?.messages ?? []) {
          if (m.role === 'human' && !state.chat.messages.some((local) => local.id === m.id)) {
            addMessage({
              id: m.id,
              content: m.content,
              sender: 'agent',
              human: true,
              timestamp: Date.parse(m.createdAt),
            });
          }
        }
      });
    }
  };

  restore();
  view.render();

  onCommand = (command) => {
    if (command.type === 'storage') return;
    if (command.host) setHostOrigin(command.host);
    if (command.type === 'identify') {
      host.identity = { ...command.user, hmac: command.hmac };
      return;
    }
    if (command.type === 'context') {
      host.context = command.context;
      return;
    }
    if (typeof command.mobile === 'boolean') view.setMobile(command.mobile);
    // Reported back, so the page's frame follows whoever asked (the loader, or the page itself).
    if (command.type === 'open') setOpen(true);
    if (command.type === 'close') setOpen(false);
  };
  for (const command of queued.splice(0)) onCommand(command);

  // While open, every 60 s: an expired session is archived, a fresh chat starts and the widget closes.
  setInterval(() => {
    if (!state.open || inline || !isExpired(state.chat)) return;
    saveCurrent();
    startFresh();
    setOpen(false);
  }, VISITOR.expiryCheckMs);

  window.addEventListener('pagehide', () => persist());
  if (state.open && !inline) post({ type: 'opened' });
};

let booted = false;
let onCommand: (command: HostCommand) => void = () => {};
const queued: HostCommand[] = [];
const start = (backend: StorageBackend) => {
  if (booted) return;
  booted = true;
  boot(backend);
};

window.addEventListener('message', (event) => {
  const command = hostCommandOf(event, window.parent, parentOrigin);
  if (!command) return;
  if (command.type === 'storage') {
    if (command.host) setHostOrigin(command.host);
    start(hostBackend(command.data, (key, value) => post({ type: 'store', key, value })));
    return;
  }
  if (booted) onCommand(command);
  else queued.push(command);
});

// Inline (no loader) the frame keeps its own storage; with the loader it waits for the host's.
if (inline || window.parent === window) start(frameBackend());
else setTimeout(() => start(frameBackend()), 400);
post({ type: 'resized', width: settings.width, height: settings.height });
post({ type: 'ready' });
