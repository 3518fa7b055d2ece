import { useId, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { Input, Label } from './input';

/** The delete-confirmation dialog: Delete stays disabled until 'confirm' is typed (any case). */
export const ConfirmDeleteDialog = ({
  title,
  description,
  open,
  onOpenChange,
  onConfirm,
  busy,
}: {
  title: string;
  description: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  busy: boolean;
}) => {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const ready = typed.trim().toLowerCase() === 'confirm';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
      title={title}
      description={description}
    >
      <Label htmlFor={inputId}>Type confirm to delete</Label>
      <Input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="danger" disabled={!ready || busy} onClick={onConfirm}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
};
