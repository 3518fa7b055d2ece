import type { TPublicDemo } from '@switchboard/core';
import { Send } from 'lucide-react';
import { type CSSProperties, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Markdown } from '../../../components/markdown';
import { cn } from '../../../lib/cn';
import type { DemoChatMessage, useDemoChat } from '../use-demo-chat';

/** shared: /shared/{id}; embedded: inside a client's iframe; preview-page: the creator's full page; editor: the live preview. */
export type DemoMode = 'shared' | 'embedded' | 'preview-page' | 'editor';

export interface PresentationProps {
  demo: TPublicDemo;
  mode: DemoMode;
  chat: ReturnType<typeof useDemoChat>;
  /** Absent when the share button is hidden. */
  onShare?: () => void;
  /** The demo's request count after an answered message. */
  onCount?: (count: number) => void;
}

export interface Palette {
  surface: string;
  surface2: string;
  text: string;
  muted: string;
  border: string;
}

export const paletteFor = (theme: 'dark' | 'light'): Palette =>
  theme === 'dark'
    ? { surface: '#15171d', surface2: '#262a33', text: '#f1f5f9', muted: '#a3adbd', border: '#2c303b' }
    : { surface: '#ffffff', surface2: '#eef2f6', text: '#0f172a', muted: '#475569', border: '#d5dbe3' };

/** Readable text on a colour: dark text on light colours, white on dark ones. */
export const textOn = (hex: string): string => {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? value.replace(/(.)/g, '$1$1') : value.padEnd(6, '0');
  const [r, g, b] = [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16) / 255);
  const lum = (c = 0) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lum(r) + 0.7152 * lum(g) + 0.0722 * lum(b);
  return luminance > 0.35 ? '#0b1512' : '#ffffff';
};

/** A colour dark enough for white text (accessible bubbles and buttons). */
export const accentOf = (demo: TPublicDemo) => demo.settings.themeColor || '#276d64';

export const Avatar = ({ demo, size = 32, label }: { demo: TPublicDemo; size?: number; label: string }) => {
  const [failed, setFailed] = useState(false);
  const url = demo.avatarUrl || demo.settings.logoUrl || demo.logoUrl;
  const accent = accentOf(demo);
  const { x, y } = demo.settings.avatarCropPosition;
  if (url && !failed) {
    return (
      <img
        src={url}
        alt=""
        onError={() => setFailed(true)}
        className="shrink-0 rounded-full object-cover"
        style={{
          width: size,
          height: size,
          objectPosition: `${x}% ${y}%`,
          transform: `scale(${demo.settings.avatarScale})`,
        }}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex shrink-0 items-center justify-center rounded-full font-semibold"
      style={{ width: size, height: size, background: accent, color: textOn(accent), fontSize: size * 0.42 }}
    >
      {label.trim().charAt(0).toUpperCase() || 'A'}
    </span>
  );
};

export const Logo = ({ demo, maxHeight = 32 }: { demo: TPublicDemo; maxHeight?: number }) => {
  const [failed, setFailed] = useState(false);
  const url = demo.settings.logoUrl || demo.logoUrl;
  if (!url || failed) return null;
  const width = Math.min(demo.settings.logoWidth || demo.logoWidth, 150);
  return (
    <img
      src={url}
      alt={`${demo.name} logo`}
      onError={() => setFailed(true)}
      className="object-contain"
      style={{
        width,
        maxHeight,
        objectPosition: `${demo.settings.logoCropPosition.x}% ${demo.settings.logoCropPosition.y}%`,
        transform: `scale(${demo.settings.logoScale})`,
      }}
    />
  );
};

export const TypingIndicator = ({ color, label = 'typing...' }: { color: string; label?: string }) => (
  <div role="status" aria-label={label} className="flex items-center gap-1 px-1 py-2">
    {[0, 1, 2].map((dot) => (
      <span
        key={dot}
        className="h-2 w-2 animate-bounce rounded-full"
        style={{ background: color, animationDelay: `${dot * 150}ms` }}
      />
    ))}
  </div>
);

export interface BubbleStyle {
  user: CSSProperties;
  bot: CSSProperties;
  shape?: string;
}

/** Visitor bubbles in the accent colour, assistant bubbles on the palette's second surface. */
export const accentBubbles = (palette: Palette, accent: string, shape?: string): BubbleStyle => ({
  user: { background: accent, color: textOn(accent) },
  bot: { background: palette.surface2, color: palette.text },
  shape,
});

/** The message list; scrolls to the newest message 100 ms after a change. */
export const MessageList = ({
  messages,
  pending,
  bubbles,
  typingColor,
  className,
  renderBotPrefix,
}: {
  messages: DemoChatMessage[];
  pending: boolean;
  bubbles: BubbleStyle;
  typingColor: string;
  className?: string;
  renderBotPrefix?: () => React.ReactNode;
}) => {
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever a message or the typing indicator appears
  useEffect(() => {
    const timer = window.setTimeout(() => end.current?.scrollIntoView({ block: 'end' }), 100);
    return () => window.clearTimeout(timer);
  }, [messages.length, pending]);
  return (
    <div className={cn('flex flex-1 flex-col gap-2 overflow-y-auto p-3', className)} aria-live="polite" role="log">
      {messages.map((message) => (
        <div
          key={message.id}
          data-testid={message.type === 'user' ? 'demo-user-message' : 'demo-bot-message'}
          className={cn('flex items-end gap-2', message.type === 'user' ? 'justify-end' : 'justify-start')}
        >
          {message.type === 'bot' ? renderBotPrefix?.() : null}
          <div
            className={cn('max-w-[80%] break-words px-3 py-2 text-sm', bubbles.shape ?? 'rounded-2xl')}
            style={message.type === 'user' ? bubbles.user : bubbles.bot}
          >
            {message.type === 'bot' ? (
              <Markdown text={message.content} />
            ) : (
              <p className="whitespace-pre-wrap">{message.content}</p>
            )}
          </div>
        </div>
      ))}
      {pending ? <TypingIndicator color={typingColor} /> : null}
      <div ref={end} />
    </div>
  );
};

/** The text input and send button: Enter sends (Shift+Enter does not); blocked when empty or pending. */
export const ChatInput = ({
  placeholder,
  pending,
  onSend,
  accent,
  palette,
  rounded = 'rounded-full',
  label = 'Message',
}: {
  placeholder: string;
  pending: boolean;
  onSend: (text: string) => void;
  accent: string;
  palette: Palette;
  rounded?: string;
  label?: string;
}) => {
  const [value, setValue] = useState('');
  const canSend = value.trim().length > 0 && !pending;
  const submit = () => {
    if (!canSend) return;
    onSend(value);
    setValue('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <div className="flex items-center gap-2 p-2" style={{ borderTop: `1px solid ${palette.border}` }}>
      <input
        aria-label={label}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        disabled={pending}
        className={cn('h-10 min-w-0 flex-1 border px-3 text-sm outline-none disabled:opacity-70', rounded)}
        style={{ background: palette.surface2, color: palette.text, borderColor: palette.border }}
      />
      <button
        type="button"
        aria-label="Send message"
        onClick={submit}
        disabled={!canSend}
        className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full disabled:opacity-50"
        style={{ background: accent, color: textOn(accent) }}
      >
        <Send size={16} aria-hidden="true" />
      </button>
    </div>
  );
};
