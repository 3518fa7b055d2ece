import type { TIntegrationApp, TIntegrationAuthKind, TIntegrationStatus } from '@switchboard/core';

/**
 * The one interface of connected apps: Composio's REST API (`composio-rest.ts`) when
 * COMPOSIO_API_KEY is set, else the labelled sandbox catalogue (`sandbox-catalogue.ts`), whose
 * tools work against this project's database. The product uses whichever is configured.
 */
export type AppInfo = Omit<TIntegrationApp, 'sandbox'>;

export interface ConnectInput {
  /** Composio's user id: the sub-account, so every connection is the sub-account's own. */
  userId: string;
  app: AppInfo;
  apiKey?: string;
  /** Where the OAuth consent sends the browser back (our callback with the connection's state). */
  callbackUrl: string;
}

export interface ConnectResult {
  externalId: string;
  status: Extract<TIntegrationStatus, 'connected' | 'pending_connection'>;
  redirectUrl: string | null;
}

export interface ExecuteInput {
  subaccountId: string;
  connectionId: string;
  externalId: string;
  toolSlug: string;
  version: string | null;
  arguments: Record<string, unknown>;
}

export interface ComposioClient {
  readonly sandbox: boolean;
  listApps(): Promise<AppInfo[]>;
  findApp(slug: string): Promise<AppInfo | null>;
  connect(input: ConnectInput): Promise<ConnectResult>;
  /** The connected account's status as Composio reports it now. */
  connectionStatus(externalId: string): Promise<TIntegrationStatus>;
  disconnect(externalId: string): Promise<void>;
  /** The app's tools as its catalogue describes them (converted with convertToolSchema). */
  listTools(appSlug: string): Promise<unknown[]>;
  execute(input: ExecuteInput): Promise<unknown>;
}

/**
 * A failed call: `auth` (the connected account expired or was revoked: COMPOSIO_AUTH_REQUIRED),
 * `unreachable` (network, timeout, 5xx: COMPOSIO_CONNECTION_FAILED), `tool` (the app refused the
 * call: TOOL_EXECUTION_FAILED, with the field when known), `invalid` (bad input of ours, e.g. an
 * API key the app refuses).
 */
export class ComposioError extends Error {
  readonly kind: 'auth' | 'unreachable' | 'tool' | 'invalid';
  readonly field?: string;
  constructor(kind: ComposioError['kind'], message: string, field?: string) {
    super(message);
    this.name = 'ComposioError';
    this.kind = kind;
    this.field = field;
  }
}

export const authKindOf = (schemes: unknown): TIntegrationAuthKind => {
  const list = Array.isArray(schemes) ? schemes.map((scheme) => String(scheme).toUpperCase()) : [];
  return list.some((scheme) => scheme.startsWith('OAUTH')) || list.length === 0 ? 'oauth' : 'api_key';
};
