import type { TTransferOwnershipResponse } from '@switchboard/core';
import { useMutation } from '@tanstack/react-query';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { showErrorDialog } from '../errors/error-dialog';

/** The owner hands the agency to an admin; the owner stays an admin. */
export const TransferOwnershipDialog = ({
  accountId,
  to,
  onClose,
  onDone,
}: {
  accountId: string;
  to: { userId: string; email: string } | null;
  onClose: () => void;
  onDone: () => void;
}) => {
  const transfer = useMutation({
    mutationFn: (userId: string) =>
      api<TTransferOwnershipResponse>(`/api/accounts/${accountId}/transfer-ownership`, {
        body: { userId },
        silent: true,
      }),
    onSuccess: () => {
      onDone();
      onClose();
    },
    onError: (error) => showErrorDialog(error),
  });
  return (
    <Dialog
      open={to !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Transfer ownership"
      description={
        to
          ? `${to.email} becomes the owner of this agency: its billing, its sub-accounts and its team. You stay an admin.`
          : undefined
      }
    >
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={!to || transfer.isPending}
          onClick={() => (to ? transfer.mutate(to.userId) : undefined)}
        >
          Transfer ownership
        </Button>
      </div>
    </Dialog>
  );
};
