import { CHANNEL_STATE_LABELS, type TChannelState } from '@switchboard/core';
import { cn } from '../../lib/cn';

const DOTS: Record<TChannelState, string> = {
  not_connected: 'border border-current bg-transparent opacity-70',
  pending_connection: 'bg-amber-500',
  live: 'bg-green-600',
  paused: 'bg-slate-500',
  error: 'bg-danger',
};

/** A state as a pill: a coloured dot and the state's name in the text colour (readable in both themes). */
export const StateBadge = ({
  state,
  className,
  testId,
}: {
  state: TChannelState;
  className?: string;
  testId?: string;
}) => (
  <span
    data-testid={testId}
    data-state={state}
    className={cn(
      'inline-flex shrink-0 items-center gap-1.5 rounded-full border border-border px-2 py-0.5 text-xs font-medium',
      className,
    )}
  >
    <span aria-hidden="true" className={cn('inline-block h-2 w-2 rounded-full', DOTS[state])} />
    {CHANNEL_STATE_LABELS[state]}
  </span>
);

/** The dot alone, for the sidebar (where the state is said in words after the link's name). */
export const StateDot = ({ state }: { state: TChannelState }) => (
  <span
    aria-hidden="true"
    title={CHANNEL_STATE_LABELS[state]}
    className={cn('inline-block h-2 w-2 shrink-0 rounded-full', DOTS[state])}
  />
);
