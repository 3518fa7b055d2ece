import type { TIntegrationStatus } from './schemas';

export interface IntegrationStatusRecord {
  id: string;
  appSlug: string;
  status: TIntegrationStatus;
}

/** What `trigger:{app_slug}` says when an app has several records: connected wins, then pending. */
const PRECEDENCE: TIntegrationStatus[] = ['connected', 'pending_connection', 'auth_required', 'failed'];
const TRIGGER_VALUE: Record<TIntegrationStatus, string> = {
  connected: 'connected',
  pending_connection: 'not_connected',
  auth_required: 'auth_required',
  failed: 'failed',
};

/**
 * The status store of one sub-account (spec workspace-widget-demos.md 4): `connection:{id}` holds a
 * record's status; a record pending_connection with an app_slug marks `trigger:{app_slug}` as
 * not connected; `integrations` maps each lower-case app slug to true when it is connected.
 */
export const integrationStatus = (records: readonly IntegrationStatusRecord[]) => {
  const entries: Record<string, string> = {};
  const integrations: Record<string, boolean> = {};
  const bySlug = new Map<string, Set<TIntegrationStatus>>();
  for (const record of records) {
    entries[`connection:${record.id}`] = record.status;
    const slug = record.appSlug.toLowerCase();
    const seen = bySlug.get(slug) ?? new Set<TIntegrationStatus>();
    seen.add(record.status);
    bySlug.set(slug, seen);
  }
  for (const [slug, seen] of bySlug) {
    const decisive = PRECEDENCE.find((status) => seen.has(status)) ?? 'pending_connection';
    entries[`trigger:${slug}`] = TRIGGER_VALUE[decisive];
    integrations[slug] = decisive === 'connected';
  }
  return { integrations, entries };
};
