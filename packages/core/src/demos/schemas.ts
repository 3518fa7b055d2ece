import { z } from 'zod';

/** Demo constants (spec/workspace-widget-demos.md section 9). */
export const DEMO_TYPES = ['website', 'sms', 'facebook', 'instagram', 'standard'] as const;
export const DEMO_CORNERS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;
export const DEMO_DEFAULT_REQUEST_LIMIT = 100;
export const DEMO_MAX_REQUEST_LIMIT = 1_000_000;
export const DEMO_DEFAULT_WIDTH = 420;
export const DEMO_DEFAULT_HEIGHT = 600;
export const DEMO_PHONE_WIDTH = 340;
export const DEMO_PHONE_HEIGHT = 360;
export const DEMO_BACKGROUND_COLOR = '#1a1d23';
export const DEMO_LAUNCHER_SIZE = 56;
export const DEMO_CORNER_OFFSET = 20;
export const DEMO_HEADER_LOGO_MAX_WIDTH = 150;
export const DEMO_WELCOME_MESSAGE_ID = '1';
export const DEMO_MESSAGE_MAX_LENGTH = 4000;
export const DEMO_HISTORY_MAX = 50;

export const ZDemoType = z.enum(DEMO_TYPES);
export type TDemoType = z.infer<typeof ZDemoType>;
export const ZDemoCorner = z.enum(DEMO_CORNERS);
export type TDemoCorner = z.infer<typeof ZDemoCorner>;

const text = (max: number, fallback = '') => z.string().trim().max(max).default(fallback);
const color = (fallback: string) =>
  z
    .string()
    .trim()
    .regex(/^(#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}))?$/, 'Colour must be a hex value such as #276d64')
    .default(fallback);
/** An http(s) address, or empty for none. */
export const ZOptionalUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'Enter an http:// or https:// address')
  .default('');
const ZPoint = z.object({ x: z.number().min(-50).max(150).default(50), y: z.number().min(-50).max(150).default(50) });
const ZScale = z.number().min(0.5).max(3).default(1);
/** A size as a number of pixels or a "123px" string (non-responsive embeds). */
export const ZDemoSize = z.union([
  z.number().int().min(100).max(4000),
  z
    .string()
    .trim()
    .regex(/^\d{3,4}(px)?$/, 'Use a plain number or a number followed by px'),
]);

/** Demo settings (section 3); every field has its default so a partial object parses whole. */
export const ZDemoSettings = z.object({
  assistantName: text(80, 'AI Assistant'),
  widgetTitle: text(80),
  websiteAssistantName: text(80),
  socialContactName: text(80),
  showWelcomeMessage: z.boolean().default(true),
  welcomeMessage: text(1000, 'Hello! How can I help you today?'),
  placeholder: text(120),
  theme: z.enum(['dark', 'light']).default('dark'),
  themeColor: color('#276d64'),
  logoUrl: ZOptionalUrl,
  logoWidth: z.number().int().min(50).max(300).default(100),
  logoCropPosition: ZPoint.prefault({}),
  logoScale: ZScale,
  avatarCropPosition: ZPoint.prefault({}),
  avatarScale: ZScale,
  backgroundUrl: ZOptionalUrl,
  widgetTemplate: z.enum(['professional', 'legacy']).default('professional'),
  suggestedResponses: z.array(z.string().trim().min(1).max(120)).max(3).default([]),
  chatBubble: z
    .object({
      enabled: z.boolean().default(true),
      message: text(200, 'Hi there! Need any help?'),
      delaySeconds: z.number().int().min(0).max(500).default(2),
    })
    .prefault({}),
  platformSettings: z
    .object({
      position: ZDemoCorner.default('bottom-right'),
      autoOpen: z.boolean().optional(),
      statusText: text(80),
      showShareButton: z.boolean().default(true),
      customHeaderSize: z.boolean().default(false),
      headerHeight: z.number().int().min(40).max(160).default(60),
      headerPadding: z.number().int().min(0).max(64).default(16),
      logoSize: z.number().int().min(10).max(100).default(70),
    })
    .prefault({}),
  embedSettings: z
    .object({
      responsive: z.boolean().default(true),
      width: ZDemoSize.default(DEMO_DEFAULT_WIDTH),
      height: ZDemoSize.default(DEMO_DEFAULT_HEIGHT),
    })
    .prefault({}),
  backgroundSettings: z
    .object({
      backgroundColor: color(DEMO_BACKGROUND_COLOR),
      showTitle: z.boolean().default(true),
      customTitle: text(120),
      titleSize: z.number().int().min(12).max(72).default(24),
      titleColor: color('#ffffff'),
      headerBackgroundColor: color(''),
      showRequestCounter: z.boolean().default(false),
      counterPosition: ZDemoCorner.default('bottom-right'),
    })
    .prefault({}),
  clientMessage: z
    .object({
      enabled: z.boolean().default(false),
      position: z.enum(['left', 'right']).default('right'),
      header: text(120),
      body: text(2000),
    })
    .prefault({}),
});
export type TDemoSettings = z.infer<typeof ZDemoSettings>;
export type TDemoSettingsInput = z.input<typeof ZDemoSettings>;
export const defaultDemoSettings = (): TDemoSettings => ZDemoSettings.parse({});

/** The build (agent) a demo answers with; only its owner sees it. */
export const ZDemoBuild = z.object({
  buildId: z.string(),
  provider: z.string(),
  assistantId: z.string(),
  openrouterModel: z.string().nullable(),
  model: z.string().nullable(),
  apiKeyId: z.string().nullable(),
});

/** A demo as its agency sees it. */
export const ZDemo = z.object({
  demoId: z.string(),
  name: z.string(),
  type: ZDemoType,
  logoUrl: z.string(),
  avatarUrl: z.string(),
  logoWidth: z.number(),
  requestCount: z.number(),
  requestLimit: z.number(),
  buildId: z.string().nullable(),
  build: ZDemoBuild.nullable(),
  settings: ZDemoSettings,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TDemo = z.infer<typeof ZDemo>;

/** A demo as anyone with its link sees it: only what the presentation needs. */
export const ZPublicDemo = ZDemo.pick({
  demoId: true,
  name: true,
  type: true,
  logoUrl: true,
  avatarUrl: true,
  logoWidth: true,
  requestCount: true,
  requestLimit: true,
  settings: true,
});
export type TPublicDemo = z.infer<typeof ZPublicDemo>;

export const ZDemoListResponse = z.object({
  demos: z.array(ZDemo),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
});
export type TDemoListResponse = z.infer<typeof ZDemoListResponse>;

const ZDemoName = z.string().trim().min(1, 'Enter a name').max(120);
const ZRequestLimit = z.number().int().min(1).max(DEMO_MAX_REQUEST_LIMIT);

export const ZCreateDemoRequest = z
  .object({
    name: ZDemoName,
    type: ZDemoType,
    buildId: z.string().trim().min(1, 'Choose an agent').max(64),
    logoUrl: ZOptionalUrl,
    avatarUrl: ZOptionalUrl,
    logoWidth: z.number().int().min(50).max(300).default(100),
    requestLimit: ZRequestLimit.default(DEMO_DEFAULT_REQUEST_LIMIT),
    settings: ZDemoSettings.prefault({}),
  })
  .strict();
export type TCreateDemoRequest = z.input<typeof ZCreateDemoRequest>;

export const ZUpdateDemoRequest = z
  .object({
    name: ZDemoName.optional(),
    type: ZDemoType.optional(),
    buildId: z.string().trim().min(1).max(64).optional(),
    logoUrl: ZOptionalUrl.optional(),
    avatarUrl: ZOptionalUrl.optional(),
    logoWidth: z.number().int().min(50).max(300).optional(),
    requestLimit: ZRequestLimit.optional(),
    settings: ZDemoSettings.optional(),
  })
  .strict();
export type TUpdateDemoRequest = z.input<typeof ZUpdateDemoRequest>;

export const ZDemoHistoryEntry = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(DEMO_MESSAGE_MAX_LENGTH),
});

/** POST /api/demo-chat */
export const ZDemoChatRequest = z.object({
  message: z.string().trim().min(1, 'Enter a message').max(DEMO_MESSAGE_MAX_LENGTH),
  demoId: z.string().trim().max(64).optional(),
  buildId: z.string().trim().max(64).optional(),
  threadId: z.string().trim().max(64).nullish(),
  history: z.array(ZDemoHistoryEntry).max(200).optional(),
  messages: z.array(ZDemoHistoryEntry).max(200).optional(),
});
export type TDemoChatRequest = z.input<typeof ZDemoChatRequest>;

export const ZDemoChatResponse = z.object({
  message: z.string(),
  response: z.string(),
  threadId: z.string(),
  thread_id: z.string(),
  requestCount: z.number(),
  requestLimit: z.number(),
  offline: z.boolean(),
  /** A person has taken the conversation over: no automatic answer, nothing counted. */
  humanHandled: z.boolean(),
});
export type TDemoChatResponse = z.infer<typeof ZDemoChatResponse>;

/** POST /api/check-embeddable */
export const ZCheckEmbeddableRequest = z.object({ url: z.string().trim().min(1, 'Enter an address').max(2000) });
export const ZCheckEmbeddableResponse = z.object({
  embeddable: z.boolean(),
  reason: z.string().optional(),
});
export type TCheckEmbeddableResponse = z.infer<typeof ZCheckEmbeddableResponse>;

/** Demo chat messages of section 8. */
export const DEMO_MESSAGES = {
  limitReached: 'Demo usage limit reached. Please contact the demo creator for a new link.',
  notFound: 'Demo configuration not found. Please contact the demo creator.',
  failed: 'Failed to get response from AI assistant.',
  empty: 'AI assistant returned an empty response. Please try again.',
  missingConfig: 'Demo is missing configuration. Please recreate the demo from the dashboard.',
  apology: 'Sorry, I encountered an error. Please try again in a moment.',
  copied: 'Link copied to clipboard!',
  copyFailed: (link: string) => `Copy failed. Here's the link: ${link}`,
  codeCopied: 'Code copied to clipboard!',
} as const;
