import { BatteryFull, ChevronLeft, Signal, Wifi } from 'lucide-react';
import { Avatar, ChatInput, MessageList, type PresentationProps, paletteFor } from './parts';
import { StandaloneActions } from './standalone-actions';

/** The SMS view: an iPhone frame 320x740 (300x640 in the editor preview) with the Messages app. */
export const SmsView = ({ demo, mode, chat, onShare }: PresentationProps) => {
  const { settings } = demo;
  const small = mode === 'editor';
  const palette = paletteFor(settings.theme);
  const contact = settings.assistantName || demo.name;
  const standalone = mode !== 'editor';
  return (
    <div className="flex flex-col items-center gap-3">
      <div
        data-testid="iphone-frame"
        className="relative flex flex-col overflow-hidden rounded-[44px] border-[10px] border-black shadow-2xl"
        style={{
          width: small ? 300 : 320,
          height: small ? 640 : 740,
          maxWidth: '100%',
          // The Clear and Share row sits below the frame: both stay on screen on a phone.
          maxHeight: small ? undefined : 'calc(100dvh - 96px)',
          background: palette.surface,
          color: palette.text,
        }}
      >
        <div className="flex h-9 shrink-0 items-center justify-between px-5 text-xs font-semibold" aria-hidden="true">
          <span>9:41</span>
          <span className="h-5 w-24 rounded-full bg-black" />
          <span className="flex items-center gap-1">
            <Signal size={12} />
            <Wifi size={12} />
            <BatteryFull size={14} />
            <span>100%</span>
          </span>
        </div>
        <header
          className="flex shrink-0 flex-col items-center gap-1 border-b pb-2"
          style={{ borderColor: palette.border, background: palette.surface2 }}
        >
          <div
            className="flex w-full items-center px-2 text-sm"
            style={{ color: settings.theme === 'dark' ? '#4da3ff' : '#0058b8' }}
          >
            <ChevronLeft size={20} aria-hidden="true" />
            <span>Messages</span>
          </div>
          <Avatar demo={demo} size={44} label={contact} />
          <h2 className="text-xs font-medium">{contact}</h2>
        </header>
        <MessageList
          messages={chat.messages}
          pending={chat.pending}
          typingColor={palette.muted}
          bubbles={{
            user: { background: '#0a66d9', color: '#ffffff' },
            bot: { background: palette.surface2, color: palette.text },
            shape: 'rounded-3xl',
          }}
        />
        <ChatInput
          placeholder={settings.placeholder || 'iMessage'}
          pending={chat.pending}
          onSend={chat.send}
          accent="#0a66d9"
          palette={palette}
        />
      </div>
      {standalone ? <StandaloneActions onClear={chat.clear} onShare={onShare} /> : null}
    </div>
  );
};
