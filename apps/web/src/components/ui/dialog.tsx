import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  /** When false the dialog cannot be dismissed by an outside click or Escape. */
  dismissible?: boolean;
  hideClose?: boolean;
}

export const Dialog = ({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  dismissible = true,
  hideClose = false,
}: DialogProps) => (
  <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
      <RadixDialog.Content
        onPointerDownOutside={(event) => (dismissible ? undefined : event.preventDefault())}
        onEscapeKeyDown={(event) => (dismissible ? undefined : event.preventDefault())}
        className={cn(
          'fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-surface p-6 text-foreground shadow-2xl',
          className,
        )}
        aria-describedby={description ? undefined : undefined}
      >
        <RadixDialog.Title className="pr-8 text-xl font-semibold">{title}</RadixDialog.Title>
        {description ? (
          <RadixDialog.Description className="mt-1 text-sm text-muted">{description}</RadixDialog.Description>
        ) : (
          <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
        )}
        <div className="mt-4">{children}</div>
        {hideClose ? null : (
          <RadixDialog.Close
            className="absolute top-4 right-4 rounded-md p-1 text-muted hover:bg-surface-2 hover:text-foreground"
            aria-label="Close"
          >
            <X size={18} />
          </RadixDialog.Close>
        )}
      </RadixDialog.Content>
    </RadixDialog.Portal>
  </RadixDialog.Root>
);
