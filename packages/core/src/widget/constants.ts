/** Business constants of the website widget (spec/workspace-widget-demos.md section 9). Zod-free: the widget bundle imports it. */
export const WIDGET_LIMITS = {
  width: { min: 300, max: 600 },
  height: { min: 300, max: 700 },
  logoWidth: { min: 50, max: 300 },
  popupDelay: { min: 1, max: 500 },
  dailyLimit: { min: 1, max: 1_000_000 },
  logoScale: { min: 0.5, max: 3, step: 0.1 },
  logoPosition: { min: -50, max: 150 },
} as const;

export const WIDGET_DAILY_LIMIT_DEFAULT = 200;
export const WIDGET_VISITOR_MAX_HEIGHT = 800;
export const DESIGNER_PREVIEW_HEIGHT = 700;
/** The designer's message area is the widget height minus this (header + input). */
export const MESSAGE_AREA_OFFSET = 132;

export const MINIMIZED_SIZES = { small: 48, medium: 64, large: 80 } as const;
export type TMinimizedSize = keyof typeof MINIMIZED_SIZES;
export const MOBILE_LAUNCHER_SIZE = 56;
/** Pixel-to-name mapping: up to 55 small, up to 72 medium, else large. */
export const minimizedSizeName = (pixels: number): TMinimizedSize =>
  pixels <= 55 ? 'small' : pixels <= 72 ? 'medium' : 'large';

export const PLACEMENTS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;
export type TPlacement = (typeof PLACEMENTS)[number];

export const WIDGET_PRESET_COLOURS = [
  { name: 'Teal', value: '#276d64' },
  { name: 'Blue', value: '#2563eb' },
  { name: 'Purple', value: '#7c3aed' },
  { name: 'Pink', value: '#db2777' },
  { name: 'Red', value: '#dc2626' },
  { name: 'Orange', value: '#ea580c' },
  { name: 'Amber', value: '#d97706' },
  { name: 'Green', value: '#16a34a' },
  { name: 'Slate', value: '#475569' },
  { name: 'Indigo', value: '#4f46e5' },
] as const;

export const VISITOR = {
  sessionLifetimeMs: 60 * 60 * 1000,
  expiryCheckMs: 60 * 1000,
  maxSavedConversations: 10,
  storageVersion: 1,
  resizeDebounceMs: 200,
  mobileBreakpoint: 1024,
  keyboardThreshold: 50,
  keyboardThresholdChromeAndroid: 100,
  fallbackKeyboard: { ios: 260, chromeAndroid: 320, other: 300 },
  previewReplyDelayMs: 1000,
  scrollDelayMs: 50,
  lastMessageCut: 50,
  lastMessageListCut: 45,
} as const;

/** Logo dialog previews and defaults. */
export const LOGO_DEFAULTS = { x: 50, y: 50, scale: 1 } as const;
export const LOGO_PREVIEWS = { avatar: { width: 200, height: 200 }, widget: { width: 300, height: 120 } } as const;
export const LOGO_HEADER_BACKGROUND = '#4c8c7f';

export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Cuts a text to `max` characters with an ellipsis. */
export const cutText = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);
