import { DEMO_CORNER_OFFSET, DEMO_LAUNCHER_SIZE, type TDemoCorner } from '@switchboard/core';
import { MessageCircle, RotateCcw, Share2, X } from 'lucide-react';
import { type CSSProperties, useEffect, useState } from 'react';
import { cn } from '../../../lib/cn';
import {
  Avatar,
  accentBubbles,
  accentOf,
  ChatInput,
  Logo,
  MessageList,
  type PresentationProps,
  paletteFor,
  textOn,
} from './parts';
import { demoWidgetSize, useViewportHeight, useViewportWidth } from './size';
import { WebsiteBackground } from './website-background';

const cornerStyle = (corner: TDemoCorner, gap = 0): CSSProperties => {
  const offset = DEMO_CORNER_OFFSET + gap;
  return {
    position: 'absolute',
    [corner.startsWith('top') ? 'top' : 'bottom']: offset,
    [corner.endsWith('left') ? 'left' : 'right']: offset,
  };
};

/**
 * The website widget: a 56px launcher at a corner (20px offset) that opens the chat panel, over
 * the client's live website (professional template) or the demo background; a chat bubble
 * appears after its delay while minimized.
 */
export const WebsiteWidget = ({ demo, mode, chat, onShare }: PresentationProps) => {
  const { settings } = demo;
  const initiallyOpen = settings.platformSettings.autoOpen ?? settings.showWelcomeMessage;
  const [open, setOpen] = useState(initiallyOpen);
  const [bubbleVisible, setBubbleVisible] = useState(false);
  const [bubbleDismissed, setBubbleDismissed] = useState(false);
  const screenWidth = useViewportWidth();
  const screenHeight = useViewportHeight();
  const size = demoWidgetSize(settings, mode, screenWidth, mode === 'editor' ? 0 : screenHeight);
  const corner = settings.platformSettings.position;
  const accent = accentOf(demo);
  const palette = paletteFor(settings.theme);
  const professional = settings.widgetTemplate === 'professional';
  const title = settings.widgetTitle || demo.name;
  const assistant = settings.websiteAssistantName || settings.assistantName;

  useEffect(() => {
    setOpen(settings.platformSettings.autoOpen ?? settings.showWelcomeMessage);
  }, [settings.platformSettings.autoOpen, settings.showWelcomeMessage]);

  useEffect(() => {
    setBubbleVisible(false);
    if (open || bubbleDismissed || !settings.chatBubble.enabled) return;
    const timer = window.setTimeout(() => setBubbleVisible(true), settings.chatBubble.delaySeconds * 1000);
    return () => window.clearTimeout(timer);
  }, [open, bubbleDismissed, settings.chatBubble.enabled, settings.chatBubble.delaySeconds]);

  const openWidget = () => {
    setOpen(true);
    setBubbleVisible(false);
  };

  const background = settings.backgroundSettings.backgroundColor;
  return (
    <div className="relative h-full min-h-[inherit] w-full overflow-hidden" style={{ background }}>
      {professional && settings.backgroundUrl ? (
        <WebsiteBackground url={settings.backgroundUrl} color={background} />
      ) : null}
      {open ? (
        <section
          aria-label={`${title} chat`}
          className={cn(
            'z-10 flex flex-col overflow-hidden shadow-2xl',
            professional ? 'rounded-2xl' : 'rounded-md border',
          )}
          style={{
            ...cornerStyle(corner),
            width: size.width,
            height: size.height,
            maxWidth: 'calc(100% - 40px)',
            maxHeight: 'calc(100% - 40px)',
            background: palette.surface,
            color: palette.text,
            borderColor: palette.border,
          }}
        >
          <header
            className="flex shrink-0 items-center gap-2 px-3"
            style={{
              background: professional ? `linear-gradient(135deg, ${accent}, ${accent}cc)` : accent,
              color: textOn(accent),
              height: settings.platformSettings.customHeaderSize ? settings.platformSettings.headerHeight : 60,
              paddingInline: settings.platformSettings.customHeaderSize ? settings.platformSettings.headerPadding : 12,
            }}
          >
            <Logo demo={demo} />
            {professional ? (
              <span className="rounded-full ring-2 ring-white/70">
                <Avatar demo={demo} size={28} label={assistant} />
              </span>
            ) : null}
            <h2 className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</h2>
            <button
              type="button"
              aria-label="Clear conversation"
              onClick={chat.clear}
              className="rounded p-1 hover:bg-black/10"
            >
              <RotateCcw size={16} aria-hidden="true" />
            </button>
            {onShare ? (
              <button type="button" aria-label="Share" onClick={onShare} className="rounded p-1 hover:bg-black/10">
                <Share2 size={16} aria-hidden="true" />
              </button>
            ) : null}
            <button
              type="button"
              aria-label="Close chat"
              onClick={() => setOpen(false)}
              className="rounded p-1 hover:bg-black/10"
            >
              <X size={18} aria-hidden="true" />
            </button>
          </header>
          <MessageList
            messages={chat.messages}
            pending={chat.pending}
            typingColor={palette.muted}
            bubbles={accentBubbles(palette, accent, professional ? 'rounded-2xl' : 'rounded-md')}
            renderBotPrefix={professional ? () => <Avatar demo={demo} size={24} label={assistant} /> : undefined}
          />
          {settings.suggestedResponses.length && chat.messages.length <= 1 ? (
            <div className="flex flex-wrap gap-2 px-3 pb-2">
              {settings.suggestedResponses.map((suggestion) => (
                <button
                  key={suggestion}
                  type="button"
                  onClick={() => chat.send(suggestion)}
                  disabled={chat.pending}
                  className="rounded-full border px-3 py-1 text-xs"
                  style={{ borderColor: accent, color: palette.text }}
                >
                  {suggestion}
                </button>
              ))}
            </div>
          ) : null}
          <ChatInput
            placeholder={settings.placeholder || 'Type your message...'}
            pending={chat.pending}
            onSend={chat.send}
            accent={accent}
            palette={palette}
            rounded={professional ? 'rounded-full' : 'rounded-md'}
          />
        </section>
      ) : (
        <>
          {bubbleVisible ? (
            <div
              className="z-10 flex max-w-64 items-start gap-2 rounded-2xl p-3 text-sm shadow-xl"
              style={{
                ...cornerStyle(corner, DEMO_LAUNCHER_SIZE + 12),
                background: palette.surface,
                color: palette.text,
              }}
            >
              <button type="button" className="text-left" onClick={openWidget}>
                {settings.chatBubble.message}
              </button>
              <button
                type="button"
                aria-label="Dismiss message"
                onClick={() => setBubbleDismissed(true)}
                className="rounded p-0.5"
              >
                <X size={14} aria-hidden="true" />
              </button>
            </div>
          ) : null}
          <button
            type="button"
            aria-label="Open chat"
            onClick={openWidget}
            className="z-10 inline-flex items-center justify-center rounded-full shadow-xl"
            style={{
              ...cornerStyle(corner),
              width: DEMO_LAUNCHER_SIZE,
              height: DEMO_LAUNCHER_SIZE,
              background: accent,
              color: textOn(accent),
            }}
          >
            <MessageCircle size={26} aria-hidden="true" />
          </button>
        </>
      )}
    </div>
  );
};
