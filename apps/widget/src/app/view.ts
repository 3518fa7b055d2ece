/** The chat window's DOM: header with menu, messages or the previous-conversations screen, and the input. */
import { cutText, VISITOR } from '@switchboard/core/widget/constants';
import type { WidgetSettings } from '@switchboard/core/widget/defaults';
import { renderMarkdown } from '@switchboard/core/widget/markdown';
import { shortAgoLabel, timeAgoLabel } from '@switchboard/core/widget/time';
import { fetchConversations } from './api';
import type { Texts } from './config';
import { h, ICONS } from './dom';
import { watchKeyboard } from './keyboard';

import type { ActiveChat, SavedConversation, Store } from './store';

interface ViewState {
  chat: ActiveChat;
  open: boolean;
  screen: 'chat' | 'list';
  loading: boolean;
  contactIdentifier: string;
  dbThreadId: string | null;
}

interface ViewOptions {
  texts: Texts;
  settings: Omit<WidgetSettings, 'dailyLimit' | 'allowedDomains'>;
  inline: boolean;
  state: ViewState;
  store: Store;
  onSend(text: string): void;
  onClose(): void;
  onNewConversation(): void;
  onShowList(): void;
  onBack(): void;
  onPick(conversation: SavedConversation): void;
  onDelete(id: string): void;
}

interface ListItem {
  conversation: SavedConversation;
  source: 'local' | 'live';
  unreadCount: number;
}

/** A logo centred at x/y percent of its box and scaled (the designer's logo dialog uses the same placement). */
/**
 * Animation is reduced on narrow screens (768 px or less), mobile browsers, with reduced motion
 * asked for, on low memory (under 4 GB) or 2 cores or fewer, and on slow connections.
 */
const calmAnimations = () => {
  const nav = navigator as Navigator & {
    deviceMemory?: number;
    connection?: { effectiveType?: string; saveData?: boolean };
  };
  return (
    window.innerWidth <= 768 ||
    /Mobi|Android|iPhone|iPad/i.test(nav.userAgent) ||
    window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ||
    (nav.deviceMemory !== undefined && nav.deviceMemory < 4) ||
    (nav.hardwareConcurrency !== undefined && nav.hardwareConcurrency <= 2) ||
    Boolean(nav.connection?.saveData) ||
    /(^|-)2g$|^3g$/.test(nav.connection?.effectiveType ?? '')
  );
};

const cropStyle = (position: { x: number; y: number }, scale: number) =>
  `left:${position.x}%;top:${position.y}%;transform:translate(-50%,-50%) scale(${scale})`;

export const createView = (o: ViewOptions) => {
  const { texts, settings, state } = o;
  const root = h('div', { class: `w ${settings.theme === 'light' ? 'light' : 'dark'}${o.inline ? ' full' : ''}` });
  document.body.append(root);
  if (calmAnimations()) root.classList.add('calm');
  let mobile = false;
  watchKeyboard(root, () => mobile);
  let menuOpen = false;
  let liveItems: ListItem[] = [];
  let draft = '';

  const headerLogoUrl = settings.widgetLogoUrl || settings.logoUrl;
  const avatarUrl = settings.useLogoForAvatar ? settings.avatarLogoUrl || settings.logoUrl : '';

  const avatar = () =>
    h(
      'div',
      { class: 'av', 'aria-hidden': 'true' },
      avatarUrl
        ? h('img', {
            src: avatarUrl,
            alt: '',
            style: cropStyle(
              settings.avatarLogoCropPosition ?? settings.logoCropPosition,
              settings.avatarLogoScale ?? settings.logoScale,
            ),
          })
        : (texts.aiName.trim()[0] ?? 'A').toUpperCase(),
    );

  const messageRow = (m: { id: string; content: string; sender: string; timestamp: number; human?: boolean }) => {
    const mine = m.sender === 'user';
    const bubble = h('div', { class: 'bub', 'data-id': m.id });
    if (mine) bubble.textContent = m.content;
    else bubble.innerHTML = renderMarkdown(m.content);
    return h(
      'div',
      { class: `row ${mine ? 'user' : 'agent'}` },
      mine ? null : avatar(),
      h(
        'div',
        {},
        mine ? null : h('div', { class: 'who', text: m.human ? `${texts.aiName} · Team` : texts.aiName }),
        bubble,
        h('div', { class: 'time', text: timeAgoLabel(m.timestamp, Date.now(), settings.language) }),
      ),
    );
  };

  const header = () => {
    const menuButton = h('button', {
      class: 'ib',
      type: 'button',
      'aria-label': 'Conversation menu',
      'aria-haspopup': 'menu',
      'aria-expanded': String(menuOpen),
      html: ICONS.menu,
      onclick: () => {
        menuOpen = !menuOpen;
        render();
      },
    });
    return h(
      'header',
      { class: 'h' },
      state.screen === 'list'
        ? h('button', {
            class: 'ib',
            type: 'button',
            'aria-label': 'Back to chat',
            html: ICONS.back,
            onclick: o.onBack,
          })
        : null,
      headerLogoUrl && state.screen === 'chat'
        ? h(
            'div',
            { class: 'logo', style: `width:${Math.min(settings.logoWidth, 150)}px` },
            h('img', {
              src: headerLogoUrl,
              alt: '',
              style: cropStyle(
                settings.widgetLogoCropPosition ?? settings.logoCropPosition,
                settings.widgetLogoScale ?? settings.logoScale,
              ),
            }),
          )
        : null,
      h('h1', { text: state.screen === 'list' ? texts.previousConversations : texts.title }),
      menuButton,
      o.inline
        ? null
        : h('button', {
            class: 'ib',
            type: 'button',
            'aria-label': 'Close chat',
            html: ICONS.close,
            onclick: o.onClose,
          }),
    );
  };

  const menu = () =>
    h(
      'div',
      { class: 'menu', role: 'menu' },
      h('button', {
        type: 'button',
        role: 'menuitem',
        text: texts.newConversation,
        onclick: () => {
          menuOpen = false;
          o.onNewConversation();
        },
      }),
      h('button', {
        type: 'button',
        role: 'menuitem',
        text: texts.previousConversations,
        onclick: () => {
          menuOpen = false;
          o.onShowList();
          void loadLive();
        },
      }),
    );

  const chatScreen = () => {
    const list = h('div', {
      class: 'msgs',
      role: 'log',
      tabindex: '0',
      'aria-live': 'polite',
      'aria-label': 'Messages',
    });
    for (const m of state.chat.messages) list.append(messageRow(m));
    if (state.loading) {
      list.append(
        h(
          'div',
          { class: 'row agent streaming' },
          avatar(),
          h(
            'div',
            { class: 'typing' },
            h('span', { class: 'dots', 'aria-hidden': 'true' }, h('i'), h('i'), h('i')),
            texts.typing,
          ),
        ),
      );
    }
    const onlyGreeting = state.chat.messages.length === 1 && state.chat.messages[0]?.id === 'greeting';
    const chips =
      onlyGreeting && !state.loading && texts.chips.length
        ? h(
            'div',
            { class: 'chips' },
            ...texts.chips.map((chip) =>
              h('button', { class: 'chip', type: 'button', text: chip, onclick: () => o.onSend(chip) }),
            ),
          )
        : null;
    const input = h('textarea', {
      rows: '1',
      placeholder: texts.placeholder,
      'aria-label': texts.placeholder,
      maxlength: '4000',
    });
    input.value = draft;
    const sendButton = h('button', { class: 'send', type: 'submit', 'aria-label': 'Send message', html: ICONS.send });
    const sync = () => {
      draft = input.value;
      sendButton.disabled = state.loading || !input.value.trim();
    };
    input.addEventListener('input', sync);
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    });
    const submit = () => {
      if (state.loading || !input.value.trim()) return;
      const text = input.value;
      draft = '';
      o.onSend(text);
    };
    const form = h(
      'form',
      {
        onsubmit: (event: Event) => {
          event.preventDefault();
          submit();
        },
      },
      input,
      sendButton,
    );
    sync();
    setTimeout(() => {
      list.scrollTop = list.scrollHeight;
    }, VISITOR.scrollDelayMs);
    return [list, chips, form];
  };

  const loadLive = async () => {
    const local = o.store.conversations();
    const live = await fetchConversations(readWidgetId(), state.contactIdentifier).catch(() => []);
    liveItems = live
      .filter((item) => !local.some((c) => c.dbThreadId === item.threadId))
      .filter((item) => item.threadId !== state.dbThreadId)
      .map((item) => ({
        source: 'live' as const,
        unreadCount: item.unreadCount,
        conversation: {
          id: item.threadId,
          timestamp: Date.parse(item.lastMessageTime),
          lastMessage: cutText(item.lastMessage, VISITOR.lastMessageCut),
          messageCount: item.totalMessages,
          messages: [],
          widgetTitle: texts.title,
          aiName: texts.aiName,
          openAIThreadId: item.threadId,
          dbThreadId: item.threadId,
        },
      }));
    if (state.screen === 'list') render();
  };

  const listScreen = () => {
    const items: ListItem[] = [
      ...o.store.conversations().map((conversation) => ({ conversation, source: 'local' as const, unreadCount: 0 })),
      ...liveItems,
    ].sort((a, b) => b.conversation.timestamp - a.conversation.timestamp);
    if (!items.length) {
      return [
        h(
          'div',
          { class: 'list' },
          h('div', { class: 'empty' }, h('strong', { text: texts.noConversations }), texts.startNewChat),
        ),
      ];
    }
    return [
      h(
        'ul',
        { class: 'list', role: 'list', style: 'list-style:none;margin:0' },
        ...items.map(({ conversation: c, source, unreadCount }) =>
          h(
            'li',
            { class: 'item' },
            h(
              'button',
              { class: 'open', type: 'button', onclick: () => o.onPick(c) },
              h(
                'div',
                { class: 't' },
                h('span', { text: c.widgetTitle || texts.title }),
                h('span', { class: 'time', text: timeAgoLabel(c.timestamp, Date.now(), settings.language) }),
              ),
              h(
                'div',
                { class: 'p' },
                cutText(c.lastMessage, VISITOR.lastMessageListCut),
                unreadCount
                  ? h('span', {
                      class: 'badge',
                      text: `${unreadCount} · ${shortAgoLabel(c.timestamp, Date.now(), settings.language)}`,
                    })
                  : null,
              ),
            ),
            source === 'local'
              ? h('button', {
                  class: 'ib del',
                  type: 'button',
                  'aria-label': `Delete conversation: ${c.lastMessage}`,
                  html: ICONS.trash,
                  onclick: () => o.onDelete(c.id),
                })
              : null,
          ),
        ),
      ),
    ];
  };

  const render = () => {
    root.replaceChildren();
    if (!state.open && !o.inline) return;
    root.append(header());
    if (menuOpen) root.append(menu());
    const parts = state.screen === 'list' ? listScreen() : chatScreen();
    for (const part of parts) if (part) root.append(part);
  };

  return {
    render,
    /** Shows the reply as it streams in, replacing the typing indicator. */
    stream(id: string, text: string) {
      const row = root.querySelector('.streaming');
      if (!row) return;
      let bubble = row.querySelector('.bub');
      if (!bubble) {
        row.replaceChildren(
          avatar(),
          h('div', {}, h('div', { class: 'who', text: texts.aiName }), h('div', { class: 'bub', 'data-id': id })),
        );
        bubble = row.querySelector('.bub');
      }
      if (bubble) bubble.innerHTML = renderMarkdown(text);
      const list = root.querySelector('.msgs');
      if (list) list.scrollTop = list.scrollHeight;
    },
    focusInput() {
      if (window.innerWidth > VISITOR.mobileBreakpoint) root.querySelector('textarea')?.focus();
    },
    scrollPosition: () => root.querySelector('.msgs')?.scrollTop ?? 0,
    scrollTo(position: number) {
      setTimeout(() => {
        const list = root.querySelector('.msgs');
        if (list) list.scrollTop = position;
      }, VISITOR.scrollDelayMs + 10);
    },
    setMobile(value: boolean) {
      mobile = value;
      root.classList.toggle('full', value || o.inline);
    },
  };
};

const readWidgetId = () => (window as unknown as { __SBW__: { widgetId: string } }).__SBW__.widgetId;
