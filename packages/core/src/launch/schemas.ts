import { z } from 'zod';
import { ERROR_CODES, type ErrorAction } from '../errors/catalogue';
import { ZRole } from '../tenancy/schemas';

/** The five channels an agent is put on (spec 1), by the `app_slug` of their connection records. */
export const LAUNCH_CHANNELS = ['website-widget', 'website-block', 'sms', 'whatsapp', 'instagram'] as const;
export const ZLaunchChannel = z.enum(LAUNCH_CHANNELS);
export type TLaunchChannel = z.infer<typeof ZLaunchChannel>;

export const LAUNCH_CHANNEL_LABELS: Record<TLaunchChannel, string> = {
  'website-widget': 'Website Widget',
  'website-block': 'Website Block',
  sms: 'SMS Agent',
  whatsapp: 'WhatsApp Agent',
  instagram: 'Instagram Agent',
};

/**
 * The state of one connection record (spec 3: status, app_slug). `pending_connection`: set up but
 * not finished (credentials, OAuth, first webhook); `live`: answering; `paused`: refused with
 * CONNECTION_INACTIVE until resumed; `error`: refused for a reason with a catalogue code.
 */
export const ZConnectionRecordStatus = z.enum(['pending_connection', 'live', 'paused', 'error']);
export type TConnectionRecordStatus = z.infer<typeof ZConnectionRecordStatus>;

/** A channel's state as its badge says it: no live connection, pending, live, paused or error. */
export const ZChannelState = z.enum(['not_connected', 'pending_connection', 'live', 'paused', 'error']);
export type TChannelState = z.infer<typeof ZChannelState>;

export const CHANNEL_STATE_LABELS: Record<TChannelState, string> = {
  not_connected: 'Not connected',
  pending_connection: 'Pending connection',
  live: 'Live',
  paused: 'Paused',
  error: 'Error',
};

export const ZChecklistItem = z.object({
  key: z.string(),
  label: z.string(),
  done: z.boolean(),
  /** Needed before the connection counts as live (others are advice). */
  required: z.boolean(),
});
export type TChecklistItem = z.infer<typeof ZChecklistItem>;

export const ZRecordError = z.object({
  code: z.string(),
  message: z.string(),
  actions: z.array(z.string()),
});
export type TRecordError = z.infer<typeof ZRecordError>;

/** A record's error with the advice and actions of the catalogue (spec evaluation 8.5). */
export const recordError = (code: keyof typeof ERROR_CODES, message?: string): TRecordError => ({
  code,
  message: message ?? ERROR_CODES[code].advice,
  actions: [...ERROR_CODES[code].actions] as ErrorAction[],
});

export const ZLaunchConnection = z.object({
  connectionId: z.string(),
  subaccountId: z.string(),
  type: ZLaunchChannel,
  /** The app the record is for (spec 3 app_slug): the channel, or the provider app it connects through. */
  appSlug: z.string(),
  name: z.string(),
  status: ZConnectionRecordStatus,
  error: ZRecordError.nullable(),
  checklist: z.array(ZChecklistItem),
  /** The sandbox transport: nothing reaches a real phone or account. */
  sandbox: z.boolean(),
  agentName: z.string().nullable(),
  pausedAt: z.string().nullable(),
  /** The channel's setup page in the web app. */
  setupPath: z.string(),
  createdAt: z.string(),
});
export type TLaunchConnection = z.infer<typeof ZLaunchConnection>;

/** An agent's enabled app tool whose app connection or MCP server is not connected. */
export const ZAppToolIssue = z.object({
  agentId: z.string(),
  agentName: z.string(),
  source: z.enum(['composio', 'mcp']),
  ownerId: z.string(),
  /** The app or server's name; null when its connection was removed. */
  ownerName: z.string().nullable(),
  /** The sandbox catalogue's app (shown with a Sandbox label). */
  sandbox: z.boolean(),
  status: z.enum(['not_connected', 'pending_connection', 'failed', 'auth_required']),
  tools: z.array(z.string()),
});
export type TAppToolIssue = z.infer<typeof ZAppToolIssue>;

export const ZLaunchSubaccount = z.object({
  subaccountId: z.string(),
  accountId: z.string(),
  name: z.string(),
  role: ZRole,
  locked: z.boolean(),
  connections: z.array(ZLaunchConnection),
  /** Agents that would call an app tool whose connection is not connected. */
  appToolIssues: z.array(ZAppToolIssue).default([]),
});
export type TLaunchSubaccount = z.infer<typeof ZLaunchSubaccount>;

export const ZLaunchQuery = z.object({
  /** Only this sub-account (the connection area's channel badges). */
  subaccountId: z.string().max(64).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** GET /api/launch: the caller's sub-accounts (a page of them) with every channel connection. */
export const ZLaunchResponse = z.object({
  subaccounts: z.array(ZLaunchSubaccount),
  page: z.number(),
  hasMore: z.boolean(),
});
export type TLaunchResponse = z.infer<typeof ZLaunchResponse>;

/** The page where a channel is set up: its connection's own page, or where its setup starts. */
/** Where a connection's credentials are entered again: its settings tab (the setup page for a website channel). */
export const settingsPathOf = (type: TLaunchChannel, connectId: string): string => {
  if (type === 'sms' || type === 'whatsapp') return `/${connectId}/${type}/campaigns?tab=settings`;
  if (type === 'instagram') return `/${connectId}/link3?tab=settings`;
  return setupPathOf(type, connectId, true);
};

export const setupPathOf = (type: TLaunchChannel, connectId: string, existing: boolean): string => {
  switch (type) {
    case 'website-widget':
    case 'website-block':
      return existing ? `/${connectId}/${type}` : `/${connectId}/add-agent?channel=${type}`;
    case 'sms':
      return `/${connectId}/sms/campaigns`;
    case 'whatsapp':
      return `/${connectId}/whatsapp/campaigns`;
    case 'instagram':
      return `/${connectId}/link3`;
  }
};
