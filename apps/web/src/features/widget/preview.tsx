import {
  localised,
  MESSAGE_AREA_OFFSET,
  MINIMIZED_SIZES,
  type TDesignerChatResponse,
  type TWidgetSettings,
  widgetStrings,
} from '@switchboard/core';
import { MessageCircle, Send, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Markdown } from '../../components/markdown';
import { api } from '../../lib/api';
import { readableOn } from '../theme/theme';
import { LogoImage } from './logo-image';

interface PreviewMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
}

let lastId = 0;
const nextId = () => {
  lastId += 1;
  return lastId;
};

const PREVIEW_HEIGHT = 700;

const CORNER: Record<TWidgetSettings['placement'], string> = {
  'bottom-right': 'bottom-5 right-5 items-end',
  'bottom-left': 'bottom-5 left-5 items-start',
  'top-right': 'top-5 right-5 items-end flex-col-reverse',
  'top-left': 'top-5 left-5 items-start flex-col-reverse',
};

/** The designer's Live Preview: the launcher (with its bubble) or the full widget, chatting with the real agent. */
export const LivePreview = ({
  settings,
  connectionId,
  block,
  readOnly,
}: {
  settings: TWidgetSettings;
  connectionId: string;
  block?: boolean;
  /** Viewers see the preview but cannot chat with it (a reply spends credits). */
  readOnly?: boolean;
}) => {
  const [open, setOpen] = useState(Boolean(block));
  const [bubbleDismissed, setBubbleDismissed] = useState(false);
  const [bubbleVisible, setBubbleVisible] = useState(false);
  const [messages, setMessages] = useState<PreviewMessage[]>([]);
  const [input, setInput] = useState('');
  const [loading, setLoading] = useState(false);
  const threadId = useRef<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const lang = settings.language;
  const strings = widgetStrings(lang);
  const title = localised(settings.widgetTitle, 'widgetTitle', lang);
  const greeting = localised(settings.firstMessage, 'firstMessage', lang);
  const onColour = readableOn(settings.themeColor);
  const dark = settings.theme === 'dark';
  const launcherSize = MINIMIZED_SIZES[settings.minimizedSize];
  const bubble = settings.chatBubble;

  // The bubble resets when its settings change, and shows after its delay.
  // biome-ignore lint/correctness/useExhaustiveDependencies: any change of the bubble settings resets it
  useEffect(() => {
    setBubbleDismissed(false);
    setBubbleVisible(false);
    const timer = window.setTimeout(() => setBubbleVisible(true), Math.max(0, bubble.delaySeconds) * 1000);
    return () => window.clearTimeout(timer);
  }, [bubble.enabled, bubble.message, bubble.delaySeconds]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls to the end whenever a message or the indicator appears
  useEffect(() => {
    const timer = window.setTimeout(() => listRef.current?.scrollTo({ top: listRef.current.scrollHeight }), 100);
    return () => window.clearTimeout(timer);
  }, [messages, loading]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = input.trim();
    if (!text || loading || readOnly) return;
    setInput('');
    setMessages((current) => [...current, { id: nextId(), role: 'user', content: text }]);
    setLoading(true);
    try {
      const reply = await api<TDesignerChatResponse>(`/api/connections/${connectionId}/preview-chat`, {
        body: { message: text, threadId: threadId.current },
        silent: true,
      });
      threadId.current = reply.threadId;
      setMessages((current) => [...current, { id: nextId(), role: 'assistant', content: reply.message }]);
    } catch (error) {
      setMessages((current) => [
        ...current,
        { id: nextId(), role: 'assistant', content: `Sorry, I encountered an error: ${(error as Error).message}` },
      ]);
    } finally {
      setLoading(false);
    }
  };

  const headerLogo = settings.widgetLogoUrl || settings.logoUrl;
  const avatarLogo = settings.useLogoForAvatar ? settings.avatarLogoUrl || settings.logoUrl : '';
  const shown = [
    ...(settings.showFirstMessage && greeting ? [{ id: 0, role: 'assistant' as const, content: greeting }] : []),
    ...messages,
  ];

  const widget = (
    <section
      aria-label="Widget preview"
      className="flex flex-col overflow-hidden rounded-2xl border border-border shadow-2xl"
      style={{
        width: block ? '100%' : Math.min(settings.width, 600),
        maxWidth: '100%',
        // The widget's true height (up to 700 px); the preview area grows to hold it and the launcher.
        height: settings.height,
        background: dark ? '#0d0e12' : '#f8fafc',
        color: dark ? '#f3f4f6' : '#0f172a',
      }}
    >
      <header
        className="flex min-h-[60px] items-center gap-3 px-4"
        style={{ background: settings.themeColor, color: onColour }}
      >
        {headerLogo ? (
          <span
            className="relative h-9 shrink-0 overflow-hidden rounded-md"
            style={{ width: Math.min(settings.logoWidth, 150) }}
          >
            <LogoImage url={headerLogo} position={settings.widgetLogoCropPosition} scale={settings.widgetLogoScale} />
          </span>
        ) : null}
        <h2 className="flex-1 truncate font-semibold">{title}</h2>
        {block ? null : (
          <button
            type="button"
            aria-label="Close preview"
            className="rounded-md p-1 hover:bg-black/10"
            onClick={() => setOpen(false)}
          >
            <X size={18} />
          </button>
        )}
      </header>
      <div
        ref={listRef}
        className="min-h-0 flex-1 space-y-3 overflow-y-auto p-4"
        style={{ height: settings.height - MESSAGE_AREA_OFFSET }}
      >
        {shown.map((message) => (
          <div key={message.id} className={message.role === 'user' ? 'flex justify-end' : 'flex items-end gap-2'}>
            {message.role === 'assistant' ? (
              <span
                className="relative flex h-7 w-7 shrink-0 items-center justify-center overflow-hidden rounded-full text-xs font-semibold"
                style={{ background: settings.themeColor, color: onColour }}
                aria-hidden="true"
              >
                {avatarLogo ? (
                  <LogoImage
                    url={avatarLogo}
                    position={settings.avatarLogoCropPosition}
                    scale={settings.avatarLogoScale}
                  />
                ) : (
                  (localised(settings.aiName, 'aiName', lang)[0] ?? 'A').toUpperCase()
                )}
              </span>
            ) : null}
            <div
              className="max-w-[80%] rounded-2xl px-3 py-2 text-sm break-words"
              style={
                message.role === 'user'
                  ? { background: settings.themeColor, color: onColour }
                  : { background: dark ? '#23262f' : '#e9eef5' }
              }
            >
              {message.role === 'assistant' ? (
                <Markdown text={message.content} />
              ) : (
                <p className="whitespace-pre-wrap">{message.content}</p>
              )}
            </div>
          </div>
        ))}
        {loading ? (
          <p className="text-sm opacity-80" role="status">
            {localised(settings.typingIndicator, 'typingIndicator', lang)}
          </p>
        ) : null}
      </div>
      <form onSubmit={send} className="flex gap-2 border-t p-3" style={{ borderColor: dark ? '#2a2d36' : '#e2e8f0' }}>
        <input
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder={
            readOnly
              ? 'Viewers cannot chat with the preview'
              : localised(settings.inputPlaceholder, 'inputPlaceholder', lang)
          }
          disabled={readOnly}
          aria-label="Preview message"
          className="h-10 min-w-0 flex-1 rounded-lg border px-3 text-sm"
          style={{ background: dark ? '#0d0e12' : '#fff', color: 'inherit', borderColor: dark ? '#2a2d36' : '#cbd5e1' }}
        />
        <button
          type="submit"
          aria-label="Send preview message"
          disabled={readOnly || loading || !input.trim()}
          className="flex h-10 w-10 items-center justify-center rounded-lg disabled:opacity-50"
          style={{ background: settings.themeColor, color: onColour }}
        >
          <Send size={16} />
        </button>
      </form>
    </section>
  );

  if (block)
    return (
      <section aria-label="Live Preview" className="rounded-xl border border-border bg-surface-2 p-4">
        {widget}
      </section>
    );

  const showBubble = bubble.enabled && bubbleVisible && !bubbleDismissed && !open;
  // 700 px, or more when the open widget, the 12 px gap, the launcher and both 20 px margins need it,
  // so neither the input row (bottom placements) nor the header (top placements) is cut off.
  const previewHeight = Math.max(PREVIEW_HEIGHT, open ? settings.height + 12 + launcherSize + 40 : 0);
  return (
    <section
      className="relative overflow-hidden rounded-xl border border-border bg-surface-2"
      style={{ height: previewHeight }}
      aria-label="Live Preview"
    >
      <div
        className={`absolute flex flex-col gap-3 ${CORNER[settings.placement]}`}
        style={{ maxWidth: 'calc(100% - 40px)' }}
      >
        {open ? widget : null}
        {showBubble ? (
          <div className="relative max-w-[260px] rounded-xl bg-white py-3 pr-8 pl-4 text-sm text-gray-900 shadow-lg">
            <button type="button" className="text-left" onClick={() => setOpen(true)}>
              {localised(bubble.message, 'bubbleMessage', lang) || strings.bubbleMessage}
            </button>
            <button
              type="button"
              aria-label="Dismiss bubble"
              className="absolute top-1 right-1 rounded p-1 text-gray-600 hover:bg-gray-100"
              onClick={() => setBubbleDismissed(true)}
            >
              <X size={14} />
            </button>
          </div>
        ) : null}
        <button
          type="button"
          aria-label={open ? 'Minimize preview' : 'Open preview'}
          onClick={() => setOpen((value) => !value)}
          className="relative flex items-center justify-center overflow-hidden rounded-full shadow-xl"
          style={{ width: launcherSize, height: launcherSize, background: settings.themeColor, color: onColour }}
        >
          {settings.useLogoForMinimizedWidget && settings.logoUrl ? (
            <LogoImage url={settings.logoUrl} position={settings.logoCropPosition} scale={settings.logoScale} />
          ) : open ? (
            <X size={launcherSize / 2.5} />
          ) : (
            <MessageCircle size={launcherSize / 2.2} />
          )}
        </button>
      </div>
    </section>
  );
};
