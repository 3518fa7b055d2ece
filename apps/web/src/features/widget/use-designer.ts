import {
  DESIGNER_WIDGET_DEFAULTS,
  type TConnection,
  type TWidgetSettings,
  withWidgetDefaults,
} from '@switchboard/core';
import { useCallback, useMemo, useState } from 'react';
import { storage } from '../../lib/storage';

/** Browser cache of the designer's settings: a widget prefix, the connection id and the field name. */
export const settingsCacheKey = (connectionId: string, field: string) => `widget_${connectionId}_${field}`;

const fromServer = (connection: TConnection): TWidgetSettings =>
  withWidgetDefaults(connection.settings, DESIGNER_WIDGET_DEFAULTS) as TWidgetSettings;

/** Cached edits newer than the server's last save are restored (an unsaved change survives a reload). */
const restoreCached = (connection: TConnection, saved: TWidgetSettings): TWidgetSettings => {
  const cachedAt = storage.get<number>(settingsCacheKey(connection.connectionId, 'cachedAt'), 0);
  if (cachedAt <= Date.parse(connection.updatedAt)) return saved;
  const restored = { ...saved } as Record<string, unknown>;
  for (const field of Object.keys(saved)) {
    const value = storage.get<unknown>(settingsCacheKey(connection.connectionId, field), undefined);
    if (value !== undefined) restored[field] = value;
  }
  return restored as TWidgetSettings;
};

export const useDesigner = (connection: TConnection) => {
  const saved = useMemo(() => fromServer(connection), [connection]);
  const [draft, setDraft] = useState<TWidgetSettings>(() => restoreCached(connection, saved));

  const setField = useCallback(
    <K extends keyof TWidgetSettings>(field: K, value: TWidgetSettings[K]) => {
      setDraft((current) => ({ ...current, [field]: value }));
      storage.set(settingsCacheKey(connection.connectionId, field), value);
      storage.set(settingsCacheKey(connection.connectionId, 'cachedAt'), Date.now());
    },
    [connection.connectionId],
  );

  const patch = useCallback(
    (values: Partial<TWidgetSettings>) => {
      for (const [field, value] of Object.entries(values)) setField(field as keyof TWidgetSettings, value as never);
    },
    [setField],
  );

  const unsaved = JSON.stringify(draft) !== JSON.stringify(saved);
  return { draft, saved, setField, patch, unsaved, reset: () => setDraft(saved) };
};
export type Designer = ReturnType<typeof useDesigner>;
