/**
 * Widget configuration defaults (spec section 3). The designer and the stored connection differ
 * in two fields: chatBubble.delaySeconds (0 vs 2) and height (700 vs 500). Zod-free.
 */
import { WIDGET_DAILY_LIMIT_DEFAULT } from './constants';
import { WIDGET_STRINGS } from './i18n';

export interface WidgetSettings {
  template: 'professional' | 'legacy';
  theme: 'dark' | 'light';
  themeColor: string;
  showFirstMessage: boolean;
  firstMessage: string;
  logoUrl: string;
  logoWidth: number;
  dailyLimit: number;
  widgetTitle: string;
  minimizedSize: 'small' | 'medium' | 'large';
  minimizedSizePixels: number;
  placement: 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';
  chatBubble: { enabled: boolean; message: string; delaySeconds: number };
  inputPlaceholder: string;
  typingIndicator: string;
  responsive: boolean;
  width: number;
  height: number;
  logoCropPosition: { x: number; y: number };
  logoScale: number;
  useLogoForAvatar: boolean;
  useLogoForMinimizedWidget: boolean;
  widgetLogoCropPosition: { x: number; y: number };
  widgetLogoScale: number;
  avatarLogoUrl: string;
  widgetLogoUrl: string;
  avatarLogoCropPosition: { x: number; y: number };
  avatarLogoScale: number;
  showAdditionalLogos: boolean;
  suggestedResponses: string[];
  aiName: string;
  language: string;
  newConversationText: string;
  previousConversationsText: string;
  /** Origins (or host names) allowed to use the public chat; empty allows every site. */
  allowedDomains: string[];
}

const en = WIDGET_STRINGS.en;

/** The stored connection defaults: what a new connection is created with. */
export const STORED_WIDGET_DEFAULTS: WidgetSettings = {
  template: 'professional',
  theme: 'dark',
  themeColor: '#276d64',
  showFirstMessage: true,
  firstMessage: en.firstMessage,
  logoUrl: '',
  logoWidth: 100,
  dailyLimit: WIDGET_DAILY_LIMIT_DEFAULT,
  widgetTitle: en.widgetTitle,
  minimizedSize: 'large',
  minimizedSizePixels: 64,
  placement: 'bottom-right',
  chatBubble: { enabled: true, message: en.bubbleMessage, delaySeconds: 2 },
  inputPlaceholder: en.inputPlaceholder,
  typingIndicator: en.typingIndicator,
  responsive: true,
  width: 400,
  height: 500,
  logoCropPosition: { x: 50, y: 50 },
  logoScale: 1,
  useLogoForAvatar: false,
  useLogoForMinimizedWidget: false,
  widgetLogoCropPosition: { x: 50, y: 50 },
  widgetLogoScale: 1,
  avatarLogoUrl: '',
  widgetLogoUrl: '',
  avatarLogoCropPosition: { x: 50, y: 50 },
  avatarLogoScale: 1,
  showAdditionalLogos: false,
  suggestedResponses: [...en.suggestedResponses],
  aiName: en.aiName,
  language: 'en',
  newConversationText: en.newConversation,
  previousConversationsText: en.previousConversations,
  allowedDomains: [],
};

/** The designer's defaults, used for any field a loaded connection lacks. */
export const DESIGNER_WIDGET_DEFAULTS: WidgetSettings = {
  ...STORED_WIDGET_DEFAULTS,
  chatBubble: { ...STORED_WIDGET_DEFAULTS.chatBubble, delaySeconds: 0 },
  height: 700,
};

/** Fills the fields a partial settings object lacks from the given defaults (one level deep for chatBubble). */
export const withWidgetDefaults = (
  partial: Partial<WidgetSettings> | null | undefined,
  defaults: WidgetSettings = STORED_WIDGET_DEFAULTS,
): WidgetSettings => ({
  ...defaults,
  ...(partial ?? {}),
  chatBubble: { ...defaults.chatBubble, ...(partial?.chatBubble ?? {}) },
});
