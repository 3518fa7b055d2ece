import { type WidgetSettings, withWidgetDefaults } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { findConnectionByWidgetId } from '../connections/repo';
import { widgetChangedChannel } from '../connections/service';

/** What the public widget endpoints need of a deployed connection. */
export interface LiveWidget {
  widgetId: string;
  connectionId: string;
  subaccountId: string;
  accountId: string;
  type: 'website-widget' | 'website-block';
  agentId: string | null;
  settings: WidgetSettings;
  version: number;
}

const TTL_MS = 5_000;
const cache = new Map<string, { value: LiveWidget | null; at: number }>();
let subscribed: Deps | null = null;

/**
 * The deployed configuration of a widget, cached for a few seconds per process (the public chat is
 * hot). Deploy publishes on the event bus so every process drops its copy at once.
 */
export const getLiveWidget = async (deps: Deps, widgetId: string): Promise<LiveWidget | null> => {
  if (subscribed !== deps) {
    subscribed = deps;
    cache.clear();
    deps.bus.subscribe(widgetChangedChannel, (payload) => {
      const id = (payload as { widgetId?: string }).widgetId;
      if (id) cache.delete(id);
    });
  }
  const hit = cache.get(widgetId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const row = /^wgt_[a-z0-9]{1,40}$/.test(widgetId) ? await findConnectionByWidgetId(deps.db, widgetId) : null;
  const value: LiveWidget | null = row
    ? {
        widgetId: row.widgetId,
        connectionId: row.id,
        subaccountId: row.subaccountId,
        accountId: row.accountId,
        type: row.type,
        agentId: row.deployedBuildId,
        settings: withWidgetDefaults(row.deployedSettings ?? row.settings),
        version: row.deployedVersion,
      }
    : null;
  if (cache.size > 10_000) cache.clear();
  cache.set(widgetId, { value, at: Date.now() });
  return value;
};
