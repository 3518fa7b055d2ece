import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';

/** Deleting a demo needs the word 'confirm' typed. */
export const DeleteDemoDialog = (props: {
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  busy: boolean;
}) => (
  <ConfirmDeleteDialog
    {...props}
    title="Delete demo"
    description={`This permanently deletes "${props.name}" and its share link stops working.`}
  />
);
