import { EVALUATION_MESSAGES } from '@switchboard/core';
import { useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/**
 * While `when` holds, in-app navigation (push, replace, back) is intercepted with the Unsaved
 * Changes dialog, and the browser's own leave prompt guards reloads and closing the tab.
 * `allowNext()` lets the next navigation through (after a started run).
 */
export const useUnsavedGuard = (when: boolean, onSave: () => Promise<boolean>) => {
  const allowed = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (allowed.current || !when) return false;
    return currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search;
  });

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      event.returnValue = EVALUATION_MESSAGES.beforeUnload;
      return EVALUATION_MESSAGES.beforeUnload;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  const [saving, setSaving] = useState(false);
  const dialog = (
    <Dialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked' && !saving) blocker.reset();
      }}
      title={EVALUATION_MESSAGES.unsavedTitle}
      description={EVALUATION_MESSAGES.unsavedText}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" disabled={saving} onClick={() => blocker.reset?.()}>
          Cancel
        </Button>
        <Button variant="danger" disabled={saving} onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
        <Button
          disabled={saving}
          onClick={async () => {
            setSaving(true);
            const saved = await onSave().catch(() => false);
            setSaving(false);
            if (saved) blocker.proceed?.();
            else blocker.reset?.();
          }}
        >
          {saving ? 'Saving...' : 'Save & Leave'}
        </Button>
      </div>
    </Dialog>
  );

  return {
    dialog,
    allowNext: () => {
      allowed.current = true;
    },
  };
};
