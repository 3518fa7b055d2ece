import type { TDemoSettings } from '@switchboard/core';
import type { Dispatch, SetStateAction } from 'react';
import type { DemoDraft } from './demo-editor';

type Nested = 'chatBubble' | 'platformSettings' | 'embedSettings' | 'backgroundSettings' | 'clientMessage';

/** Setters for the demo draft: top-level fields, settings, and one nested settings group. */
export const draftSetters = (setDraft: Dispatch<SetStateAction<DemoDraft>>) => ({
  set: (patch: Partial<DemoDraft>) => setDraft((current) => ({ ...current, ...patch })),
  setSettings: (patch: Partial<TDemoSettings>) =>
    setDraft((current) => ({ ...current, settings: { ...current.settings, ...patch } })),
  setNested: <K extends Nested>(key: K, patch: Partial<TDemoSettings[K]>) =>
    setDraft((current) => ({
      ...current,
      settings: { ...current.settings, [key]: { ...current.settings[key], ...patch } },
    })),
});
