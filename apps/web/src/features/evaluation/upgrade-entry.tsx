import { UpgradeDialog } from '../billing/upgrade-dialog';

/**
 * The entry point of the evaluation flow's upgrade dialog ('Upgrade to Unlock', built by billing):
 * opened when starting a run is refused for credits or plan.
 */
export const UpgradeEntry = ({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) => (
  <UpgradeDialog open={open} onOpenChange={onOpenChange} />
);
