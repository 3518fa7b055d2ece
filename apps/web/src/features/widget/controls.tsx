import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A titled group of settings. */
export const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <fieldset className="space-y-3 border-t border-border pt-4 first:border-t-0 first:pt-0">
    <legend className="mb-2 text-sm font-semibold">{title}</legend>
    {children}
  </fieldset>
);

/** An accessible on/off switch with its label. */
export const Toggle = ({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean;
}) => (
  <label className="flex cursor-pointer items-center justify-between gap-3 text-sm">
    <span>{label}</span>
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cn(
        'relative h-6 w-11 shrink-0 rounded-full transition disabled:opacity-50',
        checked ? 'bg-primary' : 'bg-surface-2 ring-1 ring-border',
      )}
    >
      <span
        className={cn(
          'absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-all',
          checked ? 'left-[22px]' : 'left-0.5',
        )}
      />
    </button>
  </label>
);

/** A row of mutually exclusive choices (radio group styled as buttons). */
export const Choice = <T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) => (
  <div role="radiogroup" aria-label={label}>
    <div className="mb-1 text-sm font-medium">{label}</div>
    <div className="grid grid-cols-2 gap-2">
      {options.map((option) => (
        // biome-ignore lint/a11y/useSemanticElements: buttons styled as a segmented control, with radio semantics
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            'h-9 rounded-lg border px-2 text-sm',
            value === option.value
              ? 'border-primary bg-primary text-primary-foreground'
              : 'border-border hover:bg-surface-2',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  </div>
);
