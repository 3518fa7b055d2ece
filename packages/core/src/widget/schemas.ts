import { z } from 'zod';
import { PLACEMENTS, WIDGET_LIMITS } from './constants';
import { WIDGET_LANGUAGES } from './i18n';

/** Validation messages shared by the designer and the server (spec section 5). */
export const WIDGET_MESSAGES = {
  width: `Width must be between ${WIDGET_LIMITS.width.min} and ${WIDGET_LIMITS.width.max} px`,
  height: `Height must be between ${WIDGET_LIMITS.height.min} and ${WIDGET_LIMITS.height.max} px`,
  logoWidth: `Logo width must be between ${WIDGET_LIMITS.logoWidth.min} and ${WIDGET_LIMITS.logoWidth.max} px`,
  popupDelay: `Popup delay must be between ${WIDGET_LIMITS.popupDelay.min} and ${WIDGET_LIMITS.popupDelay.max} seconds`,
  dailyLimit: `Daily limit must be between ${WIDGET_LIMITS.dailyLimit.min} and ${WIDGET_LIMITS.dailyLimit.max} messages`,
  logoUrl: 'Invalid image URL. Please enter a valid image URL.',
  themeColor: 'Theme colour must be a hex value such as #276d64',
  logoScale: `Scale must be between ${WIDGET_LIMITS.logoScale.min} and ${WIDGET_LIMITS.logoScale.max}`,
  logoPosition: `Position must be between ${WIDGET_LIMITS.logoPosition.min} and ${WIDGET_LIMITS.logoPosition.max} percent`,
  domain: 'Each allowed domain must be a host name such as example.com or an origin such as https://example.com',
} as const;

const int = (min: number, max: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
const text = (max: number) => z.string().max(max, { error: `Use at most ${max} characters` });
const imageUrl = z
  .string()
  .trim()
  .max(2000, { error: WIDGET_MESSAGES.logoUrl })
  .refine(
    (value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value) || /^data:image\/[a-z+.-]+;base64,/i.test(value),
    {
      error: WIDGET_MESSAGES.logoUrl,
    },
  );
const position = z.object({
  x: z
    .number()
    .min(WIDGET_LIMITS.logoPosition.min, { error: WIDGET_MESSAGES.logoPosition })
    .max(WIDGET_LIMITS.logoPosition.max, { error: WIDGET_MESSAGES.logoPosition }),
  y: z
    .number()
    .min(WIDGET_LIMITS.logoPosition.min, { error: WIDGET_MESSAGES.logoPosition })
    .max(WIDGET_LIMITS.logoPosition.max, { error: WIDGET_MESSAGES.logoPosition }),
});
const scale = z
  .number({ error: WIDGET_MESSAGES.logoScale })
  .min(WIDGET_LIMITS.logoScale.min, { error: WIDGET_MESSAGES.logoScale })
  .max(WIDGET_LIMITS.logoScale.max, { error: WIDGET_MESSAGES.logoScale });
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(https?:\/\/)?(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/, { error: WIDGET_MESSAGES.domain });

/** The full widget configuration as stored on a connection (spec section 3). */
export const ZWidgetSettings = z.object({
  template: z.enum(['professional', 'legacy']),
  theme: z.enum(['dark', 'light']),
  themeColor: z
    .string()
    .trim()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: WIDGET_MESSAGES.themeColor }),
  showFirstMessage: z.boolean(),
  firstMessage: text(1000),
  logoUrl: imageUrl,
  logoWidth: int(WIDGET_LIMITS.logoWidth.min, WIDGET_LIMITS.logoWidth.max, WIDGET_MESSAGES.logoWidth),
  dailyLimit: int(WIDGET_LIMITS.dailyLimit.min, WIDGET_LIMITS.dailyLimit.max, WIDGET_MESSAGES.dailyLimit),
  widgetTitle: text(80),
  minimizedSize: z.enum(['small', 'medium', 'large']),
  minimizedSizePixels: int(40, 100, 'Launcher size must be between 40 and 100 px'),
  placement: z.enum(PLACEMENTS),
  chatBubble: z.object({
    enabled: z.boolean(),
    message: text(200),
    // 0 is the designer's default (show at once); the designer's field clamps entries to 1-500.
    delaySeconds: int(0, WIDGET_LIMITS.popupDelay.max, WIDGET_MESSAGES.popupDelay),
  }),
  inputPlaceholder: text(120),
  typingIndicator: text(60),
  responsive: z.boolean(),
  width: int(WIDGET_LIMITS.width.min, WIDGET_LIMITS.width.max, WIDGET_MESSAGES.width),
  height: int(WIDGET_LIMITS.height.min, WIDGET_LIMITS.height.max, WIDGET_MESSAGES.height),
  logoCropPosition: position,
  logoScale: scale,
  useLogoForAvatar: z.boolean(),
  useLogoForMinimizedWidget: z.boolean(),
  widgetLogoCropPosition: position,
  widgetLogoScale: scale,
  avatarLogoUrl: imageUrl,
  widgetLogoUrl: imageUrl,
  avatarLogoCropPosition: position,
  avatarLogoScale: scale,
  showAdditionalLogos: z.boolean(),
  suggestedResponses: z.array(text(120)).max(3, { error: 'At most 3 suggested responses' }),
  aiName: text(80),
  language: z.enum(WIDGET_LANGUAGES, { error: 'Pick one of the 16 widget languages' }),
  newConversationText: text(60),
  previousConversationsText: text(60),
  allowedDomains: z.array(domain).max(50, { error: 'At most 50 allowed domains' }),
});
export type TWidgetSettings = z.infer<typeof ZWidgetSettings>;

/** PUT /api/connections/{connectionId}: any subset of the settings; missing fields keep their value. */
export const ZUpdateConnectionRequest = z.object({
  settings: ZWidgetSettings.partial().extend({ chatBubble: ZWidgetSettings.shape.chatBubble.partial().optional() }),
  connectionName: z.string().trim().min(1).max(80).optional(),
});
export type TUpdateConnectionRequest = z.infer<typeof ZUpdateConnectionRequest>;

export const CONNECTION_TYPES = ['website-widget', 'website-block'] as const;
export const ZConnectionType = z.enum(CONNECTION_TYPES);
export type TConnectionType = z.infer<typeof ZConnectionType>;

/** POST /api/connections: the Add agent page. */
export const ZCreateConnectionRequest = z.object({
  subaccountId: z.string().min(1).max(64),
  buildId: z.string().min(1, { error: 'Pick an agent' }).max(64),
  type: ZConnectionType,
  connectionName: z.string().trim().min(1).max(80).optional(),
});
export type TCreateConnectionRequest = z.infer<typeof ZCreateConnectionRequest>;

export const ZUpdateBuildRequest = z.object({ buildId: z.string().min(1, { error: 'Pick a build' }).max(64) });

/** A widget connection (GET /api/connections/{connectId}). */
export const ZConnection = z.object({
  connectionId: z.string(),
  widgetId: z.string(),
  buildId: z.string().nullable(),
  subaccountId: z.string(),
  type: ZConnectionType,
  connectionName: z.string(),
  settings: ZWidgetSettings,
  createdAt: z.string(),
  updatedAt: z.string(),
  deployedAt: z.string().nullable(),
  needsRedeploy: z.boolean(),
});
export type TConnection = z.infer<typeof ZConnection>;

export const ZConnectionList = z.object({ connections: z.array(ZConnection) });

/** POST /api/widget/{widgetId}/chat (spec section 7). */
const ZHostValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

/**
 * The host site's signed-in user (Switchboard.identify): `id` and the HMAC-SHA256 of it with the
 * widget's identity secret, in hex; name, email and up to 20 more attributes ride along.
 */
export const ZWidgetIdentity = z
  .object({
    id: z.string().trim().min(1, { error: 'identity.id is required' }).max(200),
    name: z.string().max(200).optional(),
    email: z.string().max(320).optional(),
    hmac: z.string().regex(/^[0-9a-fA-F]{64}$/, { error: 'identity.hmac must be 64 hex characters (HMAC-SHA256)' }),
  })
  .catchall(ZHostValue)
  .refine((value) => Object.keys(value).length <= 24, { error: 'At most 20 extra identity attributes' });
export type TWidgetIdentity = z.infer<typeof ZWidgetIdentity>;

/** What the host page tells the agent (Switchboard.setContext): up to 20 short values. */
export const ZWidgetContext = z
  .record(z.string().min(1).max(64), ZHostValue)
  .refine((value) => Object.keys(value).length <= 20, { error: 'At most 20 context values' });

export const ZWidgetChatRequest = z.object({
  message: z
    .string()
    .trim()
    .min(1, { error: 'Message is required' })
    .max(4000, { error: 'Message is too long (at most 4000 characters)' }),
  threadId: z.string().max(64).nullish(),
  widgetConversationThreadId: z.string().max(64).nullish(),
  contactIdentifier: z.string().trim().min(1, { error: 'contactIdentifier is required' }).max(120),
  history: z
    .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(8000) }))
    .max(100)
    .optional(),
  identity: ZWidgetIdentity.optional(),
  context: ZWidgetContext.optional(),
});
export type TWidgetChatRequest = z.infer<typeof ZWidgetChatRequest>;

export const ZWidgetChatResponse = z.object({
  message: z.string(),
  threadId: z.string(),
  widgetConversationThreadId: z.string(),
  newWidgetConversationThreadId: z.string().optional(),
  humanHandled: z.boolean(),
  offline: z.boolean(),
});
export type TWidgetChatResponse = z.infer<typeof ZWidgetChatResponse>;

export const ZWidgetConversation = z.object({
  threadId: z.string(),
  lastMessage: z.string(),
  lastMessageTime: z.string(),
  totalMessages: z.number(),
  customerNumber: z.string(),
  unreadCount: z.number(),
  status: z.string(),
});
export const ZWidgetConversations = z.object({ conversations: z.array(ZWidgetConversation) });
export type TWidgetConversation = z.infer<typeof ZWidgetConversation>;

/** The public configuration an embed loads (GET /api/widget/{widgetId}/config). */
export const ZPublicWidgetConfig = z.object({
  widgetId: z.string(),
  type: ZConnectionType,
  settings: ZWidgetSettings.omit({ dailyLimit: true, allowedDomains: true }),
  version: z.string(),
});
export type TPublicWidgetConfig = z.infer<typeof ZPublicWidgetConfig>;

/** POST /api/connections/{connectionId}/preview-chat: the designer's preview chats with the real agent. */
export const ZDesignerChatRequest = z.object({
  message: z
    .string()
    .trim()
    .min(1, { error: 'Message is required' })
    .max(4000, { error: 'Message is too long (at most 4000 characters)' }),
  threadId: z.string().max(64).nullish(),
});
export const ZDesignerChatResponse = z.object({ message: z.string(), threadId: z.string() });
export type TDesignerChatResponse = z.infer<typeof ZDesignerChatResponse>;
