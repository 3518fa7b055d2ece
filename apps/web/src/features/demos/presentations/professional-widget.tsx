import { DEMO_CORNER_OFFSET, DEMO_LAUNCHER_SIZE, type TDemoCorner } from '@switchboard/core';
import { MessageCircle, X } from 'lucide-react';
import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { demoChatStatusMessage } from '../use-demo-chat';
import { accentOf, type PresentationProps, paletteFor, textOn } from './parts';
import { demoWidgetSize, useViewportWidth } from './size';
import { WebsiteBackground } from './website-background';

const FRAME_SOURCE = 'switchboard-widget';
const HOST_SOURCE = 'switchboard-host';
const DEMO_SOURCE = 'switchboard-demo';

const cornerStyle = (corner: TDemoCorner, gap = 0): CSSProperties => ({
  position: 'absolute',
  [corner.startsWith('top') ? 'top' : 'bottom']: DEMO_CORNER_OFFSET + gap,
  [corner.endsWith('left') ? 'left' : 'right']: DEMO_CORNER_OFFSET,
});

/**
 * The professional template: the visitor widget's own chat window (apps/widget, served by
 * /demo-frame/{demoId} with its calls redirected to the demo endpoints) over the client's live
 * website, opened by a 56px launcher at a corner, with the chat bubble after its delay.
 */
export const ProfessionalWidget = ({ demo, mode, onCount }: PresentationProps) => {
  const { settings } = demo;
  const [open, setOpen] = useState(settings.platformSettings.autoOpen ?? settings.showWelcomeMessage);
  const [ready, setReady] = useState(false);
  const [bubbleVisible, setBubbleVisible] = useState(false);
  const [bubbleDismissed, setBubbleDismissed] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const size = demoWidgetSize(settings, mode, useViewportWidth());
  const corner = settings.platformSettings.position;
  const accent = accentOf(demo);
  const palette = paletteFor(settings.theme);

  const command = useCallback((type: 'open' | 'close') => {
    frame.current?.contentWindow?.postMessage({ source: HOST_SOURCE, type }, window.location.origin);
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as {
        source?: string;
        type?: string;
        status?: number;
        message?: string;
        requestCount?: number;
      };
      if (data?.source === FRAME_SOURCE) {
        if (data.type === 'ready') setReady(true);
        if (data.type === 'closed') setOpen(false);
        if (data.type === 'opened') setOpen(true);
      }
      if (data?.source === DEMO_SOURCE) {
        if (data.type === 'reply' && typeof data.requestCount === 'number') onCount?.(data.requestCount);
        if (data.type === 'error') toast.error(demoChatStatusMessage(data.status ?? 500, data.message));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onCount]);

  useEffect(() => {
    if (ready) command(open ? 'open' : 'close');
  }, [ready, open, command]);

  useEffect(() => {
    setBubbleVisible(false);
    if (open || bubbleDismissed || !settings.chatBubble.enabled) return;
    const timer = window.setTimeout(() => setBubbleVisible(true), settings.chatBubble.delaySeconds * 1000);
    return () => window.clearTimeout(timer);
  }, [open, bubbleDismissed, settings.chatBubble.enabled, settings.chatBubble.delaySeconds]);

  const background = settings.backgroundSettings.backgroundColor;
  return (
    <div className="relative h-full min-h-[inherit] w-full overflow-hidden" style={{ background }}>
      {settings.backgroundUrl ? <WebsiteBackground url={settings.backgroundUrl} color={background} /> : null}
      <iframe
        ref={frame}
        title={`${settings.widgetTitle || demo.name} chat window`}
        src={`/demo-frame/${demo.demoId}`}
        className="z-10 rounded-2xl border-0 shadow-2xl"
        style={{
          ...cornerStyle(corner),
          width: size.width,
          height: size.height,
          maxWidth: 'calc(100% - 40px)',
          maxHeight: 'calc(100% - 40px)',
          display: open ? 'block' : 'none',
          colorScheme: 'normal',
        }}
      />
      {open ? null : (
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
              <button type="button" className="text-left" onClick={() => setOpen(true)}>
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
            onClick={() => setOpen(true)}
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
