import { Check, RotateCcw, Share2 } from 'lucide-react';
import { useState } from 'react';
import {
  accentBubbles,
  accentOf,
  ChatInput,
  Logo,
  MessageList,
  type Palette,
  type PresentationProps,
  paletteFor,
  textOn,
} from './parts';

/** The messages and the input of the standard and simple chats. */
const ChatBody = ({
  chat,
  palette,
  accent,
  placeholder,
}: Pick<PresentationProps, 'chat'> & { palette: Palette; accent: string; placeholder: string }) => (
  <>
    <MessageList
      messages={chat.messages}
      pending={chat.pending}
      typingColor={palette.muted}
      bubbles={accentBubbles(palette, accent)}
    />
    <ChatInput
      placeholder={placeholder}
      pending={chat.pending}
      onSend={chat.send}
      accent={accent}
      palette={palette}
      rounded="rounded-lg"
    />
  </>
);

/** Standard chat: a full-page chat with logo, title (custom title or 'Untitled Demo'), Clear and Share. */
export const StandardChat = ({ demo, chat, onShare }: PresentationProps) => {
  const { settings } = demo;
  const palette = paletteFor(settings.theme);
  const accent = accentOf(demo);
  const title = settings.backgroundSettings.customTitle || settings.widgetTitle || demo.name || 'Untitled Demo';
  return (
    <section
      aria-label={`${title} chat`}
      className="mx-auto flex h-full min-h-[480px] w-full max-w-3xl flex-col overflow-hidden rounded-2xl border shadow-xl"
      style={{ background: palette.surface, color: palette.text, borderColor: palette.border }}
    >
      <header className="flex shrink-0 items-center gap-3 border-b px-4 py-3" style={{ borderColor: palette.border }}>
        <Logo demo={demo} />
        <h2 className="min-w-0 flex-1 truncate text-base font-semibold">{title}</h2>
        <button
          type="button"
          onClick={chat.clear}
          className="inline-flex items-center gap-1 rounded-lg border px-3 py-1.5 text-sm"
          style={{ borderColor: palette.border }}
        >
          <RotateCcw size={14} aria-hidden="true" /> Clear
        </button>
        {onShare ? (
          <button
            type="button"
            onClick={onShare}
            className="inline-flex items-center gap-1 rounded-lg px-3 py-1.5 text-sm"
            style={{ background: accent, color: textOn(accent) }}
          >
            <Share2 size={14} aria-hidden="true" /> Share
          </button>
        ) : null}
      </header>
      <ChatBody
        chat={chat}
        palette={palette}
        accent={accent}
        placeholder={settings.placeholder || 'Type your message...'}
      />
    </section>
  );
};

/**
 * The simple chat view (the compact standard chat used when embedded): header with logo and
 * name, Clear and optional Share (with a 2 second confirmation), input 'Type your message here...';
 * failures show 'Error: {message}' in the conversation.
 */
export const SimpleChat = ({ demo, chat, onShare }: PresentationProps) => {
  const { settings } = demo;
  const palette = paletteFor(settings.theme);
  const accent = accentOf(demo);
  const [copied, setCopied] = useState(false);
  const share = async () => {
    if (!onShare) return;
    await onShare();
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2000);
  };
  return (
    <section
      aria-label={`${demo.name} chat`}
      className="flex h-full w-full flex-col overflow-hidden"
      style={{ background: palette.surface, color: palette.text }}
    >
      <header className="flex shrink-0 items-center gap-2 border-b px-3 py-2" style={{ borderColor: palette.border }}>
        <Logo demo={demo} maxHeight={28} />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">{settings.assistantName || demo.name}</h2>
        <button
          type="button"
          onClick={chat.clear}
          className="rounded px-2 py-1 text-xs"
          style={{ color: palette.text }}
        >
          Clear
        </button>
        {onShare ? (
          <button type="button" onClick={share} className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs">
            {copied ? <Check size={12} aria-hidden="true" /> : <Share2 size={12} aria-hidden="true" />}
            {copied ? 'Copied!' : 'Share'}
          </button>
        ) : null}
      </header>
      <ChatBody
        chat={chat}
        palette={palette}
        accent={accent}
        placeholder={settings.placeholder || 'Type your message here...'}
      />
    </section>
  );
};
