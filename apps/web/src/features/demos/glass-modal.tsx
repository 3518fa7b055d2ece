import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * The glass-style modal wrapper: a frosted panel; while `blocked` (saving) it cannot be closed
 * and shows a Saving spinner instead of its close button.
 */
export const GlassModal = ({
  open,
  onClose,
  blocked,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  blocked: boolean;
  title: string;
  children: ReactNode;
}) => (
  <RadixDialog.Root open={open} onOpenChange={(next) => (!next && !blocked ? onClose() : undefined)}>
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-sm" />
      <RadixDialog.Content
        onPointerDownOutside={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => (blocked ? event.preventDefault() : undefined)}
        className="fixed inset-2 z-50 flex flex-col overflow-hidden rounded-2xl border border-white/20 bg-surface/85 text-foreground shadow-2xl backdrop-blur-xl md:inset-6"
      >
        <div className="flex shrink-0 items-center gap-3 border-b border-border px-4 py-3">
          <RadixDialog.Title className="min-w-0 flex-1 truncate text-lg font-semibold">{title}</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">
            Edit the demo settings with a live preview
          </RadixDialog.Description>
          {blocked ? (
            <span role="status" className="inline-flex items-center gap-2 text-sm text-muted">
              <span
                className="h-4 w-4 animate-spin rounded-full border-2 border-border border-t-primary"
                aria-hidden="true"
              />
              Saving
            </span>
          ) : (
            <RadixDialog.Close
              aria-label="Close"
              className="rounded-md p-1 text-muted hover:bg-surface-2 hover:text-foreground"
            >
              <X size={18} />
            </RadixDialog.Close>
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  </RadixDialog.Root>
);
