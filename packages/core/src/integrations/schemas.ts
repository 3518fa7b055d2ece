import { z } from 'zod';
import { ZAppToolGroup, ZAppToolOwnerStatus, ZDiscoveredTool } from '../agents/app-tools';

/**
 * Connected apps (Composio): the apps a sub-account can connect, its connection records
 * (spec workspace-widget-demos.md 3: status and app_slug) and the integration status map
 * (spec evaluation.md 3: lower-case integration name to boolean).
 */

export const ZIntegrationAuthKind = z.enum(['oauth', 'api_key']);
export type TIntegrationAuthKind = z.infer<typeof ZIntegrationAuthKind>;

/** A connection's status: the same four states an app tool group's badge shows. */
export const ZIntegrationStatus = ZAppToolOwnerStatus;
export type TIntegrationStatus = z.infer<typeof ZIntegrationStatus>;

/** The badge of each status; failed and auth_required carry the catalogue's actions (8.5). */
export const INTEGRATION_STATUS_LABELS: Record<TIntegrationStatus, string> = {
  connected: 'Connected',
  pending_connection: 'Pending connection',
  failed: 'Reconnect App',
  auth_required: 'Connect Account',
};

export const ZIntegrationApp = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  authKind: ZIntegrationAuthKind,
  logo: z.string().nullable(),
  /** The sandbox catalogue (no COMPOSIO_API_KEY): its tools work against this project's database only. */
  sandbox: z.boolean(),
});
export type TIntegrationApp = z.infer<typeof ZIntegrationApp>;

export const ZIntegrationAppsResponse = z.object({ apps: z.array(ZIntegrationApp), sandbox: z.boolean() });
export type TIntegrationAppsResponse = z.infer<typeof ZIntegrationAppsResponse>;

export const ZIntegrationConnection = z.object({
  id: z.string(),
  subaccountId: z.string(),
  appSlug: z.string(),
  appName: z.string(),
  status: ZIntegrationStatus,
  authKind: ZIntegrationAuthKind,
  sandbox: z.boolean(),
  lastError: z.string().nullable(),
  discoveredTools: z.array(ZDiscoveredTool),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TIntegrationConnection = z.infer<typeof ZIntegrationConnection>;

export const ZIntegrationConnectionsResponse = z.object({ connections: z.array(ZIntegrationConnection) });
export type TIntegrationConnectionsResponse = z.infer<typeof ZIntegrationConnectionsResponse>;

export const ZConnectIntegrationRequest = z.object({
  appSlug: z
    .string()
    .trim()
    .min(1, 'Choose an app')
    .max(100)
    .regex(/^[a-zA-Z0-9_-]+$/, 'Choose an app'),
  /** For API-key apps: the key of the app account. */
  apiKey: z.string().trim().min(1, 'Enter the API key').max(500).optional(),
});
export type TConnectIntegrationRequest = z.input<typeof ZConnectIntegrationRequest>;

export const ZConnectIntegrationResponse = z.object({
  connection: ZIntegrationConnection,
  /** OAuth apps: where the browser goes to grant access; null when the connection is done. */
  redirectUrl: z.string().nullable(),
});
export type TConnectIntegrationResponse = z.infer<typeof ZConnectIntegrationResponse>;

/**
 * The per-sub-account status store: `integrations` maps each lower-case app slug to whether it is
 * connected; `entries` holds `connection:{id}` (the record's status) and `trigger:{app_slug}`
 * ('connected', or 'not_connected' when a record is pending_connection, or the failure).
 */
export const ZIntegrationStatusResponse = z.object({
  integrations: z.record(z.string(), z.boolean()),
  entries: z.record(z.string(), z.string()),
});
export type TIntegrationStatusResponse = z.infer<typeof ZIntegrationStatusResponse>;

export const ZSandboxRecord = z.object({
  id: z.string(),
  connectionId: z.string(),
  kind: z.enum(['booking', 'contact', 'email']),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type TSandboxRecord = z.infer<typeof ZSandboxRecord>;

export const ZSandboxRecordsResponse = z.object({ records: z.array(ZSandboxRecord) });
export type TSandboxRecordsResponse = z.infer<typeof ZSandboxRecordsResponse>;

/** GET /api/agents/{agentId}/app-tools: every source's groups (Composio connections, MCP servers). */
export const ZAppToolGroupsResponse = z.object({ groups: z.array(ZAppToolGroup) });
export type TAppToolGroupsResponse = z.infer<typeof ZAppToolGroupsResponse>;
