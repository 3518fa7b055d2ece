import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';

/** Deleting an agent needs the word 'confirm' typed (spec/evaluation.md 2.3). */
export const DeleteAgentDialog = (props: {
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  busy: boolean;
}) => (
  <ConfirmDeleteDialog
    {...props}
    title="Delete agent"
    description={`This permanently deletes "${props.name}", its documents and its conversations.`}
  />
);
