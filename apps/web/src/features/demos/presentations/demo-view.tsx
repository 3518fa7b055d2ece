import { DEMO_DEFAULT_REQUEST_LIMIT, type TDemoCorner, type TPublicDemo } from '@switchboard/core';
import { X } from 'lucide-react';
import { type CSSProperties, useEffect, useState } from 'react';
import { cn } from '../../../lib/cn';
import { copyShareLink } from '../share';
import { useDemoChat } from '../use-demo-chat';
import type { DemoMode, PresentationProps } from './parts';
import { ProfessionalWidget } from './professional-widget';
import { useViewportWidth } from './size';
import { SmsView } from './sms-view';
import { SocialView } from './social-view';
import { SimpleChat, StandardChat } from './standard-chat';
import { WebsiteWidget } from './website-widget';

const cornerPosition = (corner: TDemoCorner): CSSProperties => ({
  [corner.startsWith('top') ? 'top' : 'bottom']: 16,
  [corner.endsWith('left') ? 'left' : 'right']: 16,
});

/** 'N / M requests used' at one of four corners; hidden when embedded. */
export const RequestCounter = ({ count, limit, corner }: { count: number; limit: number; corner: TDemoCorner }) => (
  <p
    data-testid="request-counter"
    className="absolute z-20 rounded-full bg-black/70 px-3 py-1 text-xs font-medium text-white"
    style={cornerPosition(corner)}
  >
    {count} / {limit || DEMO_DEFAULT_REQUEST_LIMIT} requests used
  </p>
);

/** The creator's note to the client beside the demo; dismissible. */
export const ClientMessageCard = ({
  header,
  body,
  onDismiss,
}: {
  header: string;
  body: string;
  onDismiss: () => void;
}) => (
  <aside
    aria-label="Message from the demo creator"
    className="relative w-full max-w-xs rounded-2xl border border-white/15 bg-white p-5 text-slate-900 shadow-xl"
  >
    <button
      type="button"
      aria-label="Dismiss message"
      onClick={onDismiss}
      className="absolute top-3 right-3 rounded p-1 hover:bg-slate-100"
    >
      <X size={16} aria-hidden="true" />
    </button>
    {header ? <h2 className="pr-6 text-base font-semibold">{header}</h2> : null}
    {body ? <p className="mt-2 whitespace-pre-wrap text-sm text-slate-700">{body}</p> : null}
  </aside>
);

const Presentation = (props: PresentationProps) => {
  switch (props.demo.type) {
    case 'website':
      // The live preview shows unsaved edits, so it always uses the built-in panel.
      return props.demo.settings.widgetTemplate === 'professional' && props.mode !== 'editor' ? (
        <ProfessionalWidget {...props} />
      ) : (
        <WebsiteWidget {...props} />
      );
    case 'sms':
      return <SmsView {...props} />;
    case 'facebook':
      return <SocialView {...props} variant="facebook" />;
    case 'instagram':
      return <SocialView {...props} variant="instagram" />;
    default:
      return props.mode === 'embedded' ? <SimpleChat {...props} /> : <StandardChat {...props} />;
  }
};

/**
 * One demo in one of its modes: the stage (background, title, request counter, client message
 * card) around the presentation of its type. The conversation lives here.
 */
export const DemoView = ({ demo, mode }: { demo: TPublicDemo; mode: DemoMode }) => {
  const { settings } = demo;
  const [count, setCount] = useState(demo.requestCount);
  useEffect(() => setCount(demo.requestCount), [demo.requestCount]);
  const chat = useDemoChat(demo.demoId, settings, {
    simple: mode === 'embedded' && demo.type === 'standard',
    onCount: setCount,
  });
  const [cardDismissed, setCardDismissed] = useState(false);
  const wide = useViewportWidth() >= 1024;
  const onShare = settings.platformSettings.showShareButton ? () => void copyShareLink(demo.demoId) : undefined;
  const background = settings.backgroundSettings;
  const showCard =
    mode !== 'embedded' &&
    settings.clientMessage.enabled &&
    !cardDismissed &&
    Boolean(settings.clientMessage.header || settings.clientMessage.body);
  const social = demo.type === 'facebook' || demo.type === 'instagram';
  const shift = social && showCard && wide ? (settings.clientMessage.position === 'left' ? 160 : -160) : 0;
  const fullBleed = demo.type === 'website' || (demo.type === 'standard' && mode === 'embedded');
  const title = background.customTitle || demo.name;
  // On the website type the badge leaves the widget's corner to the widget.
  const widgetCorner = settings.platformSettings.position;
  const counterCorner =
    demo.type === 'website' && background.counterPosition === widgetCorner
      ? (`${widgetCorner.startsWith('top') ? 'bottom' : 'top'}-${widgetCorner.split('-')[1]}` as TDemoCorner)
      : background.counterPosition;
  // The standard chat is as wide as the screen allows: on wide screens the note takes a column
  // beside it instead of lying over its bubbles.
  const cardBeside = showCard && wide && demo.type === 'standard' && !fullBleed;
  const cardProps = {
    header: settings.clientMessage.header,
    body: settings.clientMessage.body,
    onDismiss: () => setCardDismissed(true),
  };

  return (
    <div
      className={cn(
        'relative flex w-full flex-col',
        mode !== 'editor' ? 'min-h-screen' : fullBleed ? 'h-[700px]' : 'min-h-[700px]',
      )}
      style={{
        background: mode === 'embedded' && demo.type !== 'website' ? 'transparent' : background.backgroundColor,
      }}
    >
      {background.showTitle && mode !== 'embedded' && demo.type !== 'website' ? (
        <header
          className="shrink-0 px-4 py-3 text-center font-semibold"
          style={{ background: background.headerBackgroundColor || undefined }}
        >
          <h1 style={{ color: background.titleColor, fontSize: background.titleSize }}>{title}</h1>
        </header>
      ) : null}
      <div
        className={cn(
          'relative flex flex-1',
          fullBleed ? 'min-h-[inherit]' : 'items-center justify-center gap-6 p-4',
          cardBeside && settings.clientMessage.position === 'left' && 'flex-row-reverse',
        )}
      >
        <div
          className={cn(
            fullBleed ? 'absolute inset-0' : 'flex w-full min-w-0 justify-center',
            demo.type === 'standard' && !fullBleed && 'h-[70vh]',
          )}
          style={shift ? { transform: `translateX(${shift}px)` } : undefined}
        >
          <Presentation demo={demo} mode={mode} chat={chat} onShare={onShare} onCount={setCount} />
        </div>
        {cardBeside ? (
          <div className="shrink-0">
            <ClientMessageCard {...cardProps} />
          </div>
        ) : null}
        {showCard && wide && !cardBeside ? (
          <div
            className={cn(
              'absolute z-20',
              fullBleed ? 'top-14' : 'top-1/2 -translate-y-1/2',
              settings.clientMessage.position === 'left' ? 'left-8' : 'right-8',
            )}
          >
            <ClientMessageCard {...cardProps} />
          </div>
        ) : null}
      </div>
      {showCard && !wide ? (
        // On a phone the note follows the demo, so the chat's input stays above the fold and the
        // request badge (a corner of the page) never covers the note's close button.
        <div className={cn('flex justify-center p-4', counterCorner.startsWith('bottom') && 'pb-16')}>
          <ClientMessageCard {...cardProps} />
        </div>
      ) : null}
      {background.showRequestCounter && mode !== 'embedded' ? (
        <RequestCounter count={count} limit={demo.requestLimit} corner={counterCorner} />
      ) : null}
    </div>
  );
};
