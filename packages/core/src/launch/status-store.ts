/**
 * The per-sub-account connection status store (spec 4, "Connection status"): connection records
 * (status, app_slug) become entries keyed `connection:{connectionId}` and `trigger:{app_slug}`.
 * An entry with status pending_connection and an app_slug marks `trigger:{app_slug}` as not
 * connected. A channel's badge reads its trigger entry.
 */
import type { TChannelState, TConnectionRecordStatus } from './schemas';

export interface StatusRecord {
  connectionId: string;
  appSlug: string | null;
  status: TConnectionRecordStatus;
}

export const triggerKey = (appSlug: string) => `trigger:${appSlug}`;
export const connectionKey = (connectionId: string) => `connection:${connectionId}`;

/**
 * Which record decides an app's trigger entry when it has several: a live one (the channel answers),
 * then a pending one (not connected, the spec's rule), then an error, then a paused one.
 */
const TRIGGER_PRECEDENCE: TConnectionRecordStatus[] = ['live', 'pending_connection', 'error', 'paused'];
const TRIGGER_STATE: Record<TConnectionRecordStatus, TChannelState> = {
  live: 'live',
  pending_connection: 'not_connected',
  error: 'error',
  paused: 'paused',
};

/** The entries of one sub-account's store, built from its connection records. */
export const statusEntries = (records: readonly StatusRecord[]): Map<string, TChannelState> => {
  const entries = new Map<string, TChannelState>();
  const bySlug = new Map<string, Set<TConnectionRecordStatus>>();
  for (const record of records) {
    entries.set(connectionKey(record.connectionId), record.status);
    if (!record.appSlug) continue;
    const seen = bySlug.get(record.appSlug) ?? new Set<TConnectionRecordStatus>();
    seen.add(record.status);
    bySlug.set(record.appSlug, seen);
  }
  for (const [slug, seen] of bySlug) {
    const decisive = TRIGGER_PRECEDENCE.find((status) => seen.has(status));
    if (decisive) entries.set(triggerKey(slug), TRIGGER_STATE[decisive]);
  }
  return entries;
};

export interface StatusStore {
  /** Replaces a sub-account's entries with those of its current records. */
  load(subaccountId: string, records: readonly StatusRecord[]): void;
  get(subaccountId: string, key: string): TChannelState | undefined;
  /** A channel's badge: its trigger entry, or not connected when it has no record. */
  channelState(subaccountId: string, appSlug: string): TChannelState;
  /** Drops a sub-account's entries (it was left or deleted). */
  clear(subaccountId?: string): void;
}

export const createStatusStore = (): StatusStore => {
  const bySubaccount = new Map<string, Map<string, TChannelState>>();
  return {
    load(subaccountId, records) {
      bySubaccount.set(subaccountId, statusEntries(records));
    },
    get(subaccountId, key) {
      return bySubaccount.get(subaccountId)?.get(key);
    },
    channelState(subaccountId, appSlug) {
      return bySubaccount.get(subaccountId)?.get(triggerKey(appSlug)) ?? 'not_connected';
    },
    clear(subaccountId) {
      if (subaccountId) bySubaccount.delete(subaccountId);
      else bySubaccount.clear();
    },
  };
};
