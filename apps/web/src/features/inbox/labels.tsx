import type { TInboxLabel, TLabelColor } from '@switchboard/core';
import { cn } from '../../lib/cn';

/** Label colours: dark enough for white text in both themes. */
export const LABEL_CLASSES: Record<TLabelColor, string> = {
  gray: 'bg-gray-600',
  red: 'bg-red-700',
  orange: 'bg-orange-700',
  green: 'bg-green-700',
  teal: 'bg-teal-700',
  blue: 'bg-blue-700',
  purple: 'bg-purple-700',
  pink: 'bg-pink-700',
};

export const LabelChip = ({ label, className }: { label: TInboxLabel; className?: string }) => (
  <span
    className={cn(
      'inline-flex max-w-40 items-center truncate rounded-full px-2 py-0.5 text-xs font-medium text-white',
      LABEL_CLASSES[label.color],
      className,
    )}
  >
    {label.name}
  </span>
);
