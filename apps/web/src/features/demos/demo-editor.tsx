import { type TDemo, type TDemoSettings, type TPublicDemo, ZDemoSettings, ZUpdateDemoRequest } from '@switchboard/core';
import { useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { BuildOption } from './api';
import { GlassModal } from './glass-modal';
import { DemoView } from './presentations/demo-view';
import { SettingsForm } from './settings-form';

export interface DemoDraft {
  name: string;
  type: TDemo['type'];
  buildId: string;
  logoUrl: string;
  avatarUrl: string;
  logoWidth: number;
  requestLimit: number;
  settings: TDemoSettings;
}

const draftOf = (demo: TDemo): DemoDraft => ({
  name: demo.name,
  type: demo.type,
  buildId: demo.buildId ?? '',
  logoUrl: demo.logoUrl,
  avatarUrl: demo.avatarUrl,
  logoWidth: demo.logoWidth,
  requestLimit: demo.requestLimit,
  settings: demo.settings,
});

/** Field errors keyed by their path ("settings.themeColor"). */
export type FieldErrors = Record<string, string>;

/** Edits every demo setting with a live preview; saving blocks closing. */
export const DemoEditor = ({
  demo,
  builds,
  canEdit,
  onClose,
  onSave,
}: {
  demo: TDemo;
  builds: BuildOption[];
  canEdit: boolean;
  onClose: () => void;
  onSave: (body: DemoDraft) => Promise<unknown>;
}) => {
  const [draft, setDraft] = useState<DemoDraft>(() => draftOf(demo));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const lastGood = useRef<TDemoSettings>(demo.settings);

  const previewSettings = useMemo(() => {
    const parsed = ZDemoSettings.safeParse(draft.settings);
    if (parsed.success) lastGood.current = parsed.data;
    return lastGood.current;
  }, [draft.settings]);

  const preview: TPublicDemo = {
    demoId: demo.demoId,
    name: draft.name || demo.name,
    type: draft.type,
    logoUrl: draft.logoUrl,
    avatarUrl: draft.avatarUrl,
    logoWidth: draft.logoWidth,
    requestCount: demo.requestCount,
    requestLimit: draft.requestLimit,
    settings: previewSettings,
  };

  const save = async () => {
    const parsed = ZUpdateDemoRequest.safeParse(draft);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) next[issue.path.join('.')] = issue.message;
      setErrors(next);
      toast.error('Check the highlighted fields');
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await onSave(draft);
      toast.success('Demo saved');
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.field) setErrors({ [error.field]: error.message });
      toast.error(error instanceof Error ? error.message : 'The demo could not be saved');
    } finally {
      setSaving(false);
    }
  };

  return (
    <GlassModal open onClose={onClose} blocked={saving} title={`Edit demo: ${demo.name}`}>
      <div className="grid gap-4 p-4 lg:grid-cols-[minmax(0,420px)_minmax(0,1fr)]">
        <div className="space-y-4">
          <SettingsForm draft={draft} setDraft={setDraft} errors={errors} builds={builds} />
          <div className="sticky bottom-0 flex justify-end gap-2 bg-surface/90 py-3">
            <Button variant="secondary" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button
              onClick={save}
              disabled={saving || !canEdit}
              title={canEdit ? undefined : 'Viewers cannot save changes'}
            >
              Save
            </Button>
          </div>
        </div>
        <section
          aria-label="Live preview"
          className="min-w-0 self-start overflow-hidden rounded-xl border border-border lg:sticky lg:top-0"
        >
          <DemoView key={`${draft.type}`} demo={preview} mode="editor" />
        </section>
      </div>
    </GlassModal>
  );
};
