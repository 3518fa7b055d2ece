import { Info, Phone, Video } from 'lucide-react';
import { Avatar, accentOf, ChatInput, MessageList, type PresentationProps, paletteFor } from './parts';
import { demoWidgetSize, useViewportWidth } from './size';
import { StandaloneActions } from './standalone-actions';

const VARIANTS = {
  facebook: { status: 'Typically replies instantly', placeholder: 'Type a message...', accent: '#0866ff' },
  instagram: { status: 'Active now', placeholder: 'Message...', accent: '#7c3aed' },
} as const;

/** Facebook-style and Instagram-style chats: header with avatar, display name and status text. */
export const SocialView = ({
  demo,
  mode,
  chat,
  onShare,
  variant,
}: PresentationProps & { variant: 'facebook' | 'instagram' }) => {
  const { settings } = demo;
  const palette = paletteFor(settings.theme);
  const defaults = VARIANTS[variant];
  const name = settings.socialContactName || settings.assistantName || demo.name;
  const status = settings.platformSettings.statusText || defaults.status;
  const screenWidth = useViewportWidth();
  const size = demoWidgetSize(settings, mode, screenWidth);
  const userColor = variant === 'facebook' ? defaults.accent : accentOf(demo);
  const userBackground =
    variant === 'instagram'
      ? `linear-gradient(135deg, #6d28d9, ${userColor === '#7c3aed' ? '#be185d' : userColor})`
      : userColor;
  return (
    <div className="flex flex-col items-center gap-3">
      <section
        aria-label={`${name} chat`}
        data-testid={`${variant}-chat`}
        className="flex flex-col overflow-hidden rounded-2xl border shadow-2xl"
        style={{
          width: size.width,
          height: size.height,
          maxWidth: 'calc(100vw - 24px)',
          background: palette.surface,
          color: palette.text,
          borderColor: palette.border,
        }}
      >
        <header className="flex shrink-0 items-center gap-3 border-b px-3 py-2" style={{ borderColor: palette.border }}>
          <Avatar demo={demo} size={40} label={name} />
          <div className="min-w-0 flex-1">
            <h2 className="truncate text-sm font-semibold">{name}</h2>
            <p className="truncate text-xs" style={{ color: palette.muted }}>
              {status}
            </p>
          </div>
          <span
            className="flex gap-3"
            style={{ color: variant === 'facebook' ? defaults.accent : palette.text }}
            aria-hidden="true"
          >
            <Phone size={18} />
            <Video size={18} />
            {variant === 'facebook' ? <Info size={18} /> : null}
          </span>
        </header>
        <MessageList
          messages={chat.messages}
          pending={chat.pending}
          typingColor={palette.muted}
          bubbles={{
            user: { background: userBackground, color: '#ffffff' },
            bot: { background: palette.surface2, color: palette.text },
            shape: variant === 'instagram' ? 'rounded-3xl' : 'rounded-2xl',
          }}
          renderBotPrefix={() => <Avatar demo={demo} size={24} label={name} />}
        />
        <ChatInput
          placeholder={settings.placeholder || defaults.placeholder}
          pending={chat.pending}
          onSend={chat.send}
          accent={variant === 'facebook' ? defaults.accent : '#6d28d9'}
          palette={palette}
        />
      </section>
      {mode !== 'editor' ? <StandaloneActions onClear={chat.clear} onShare={onShare} /> : null}
    </div>
  );
};
