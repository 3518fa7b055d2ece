import { Minus, Plus } from 'lucide-react';
import { Button } from '../../components/ui/button';

/** A bounded number stepper: minus, the value, plus. */
export const Stepper = ({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
}) => (
  // biome-ignore lint/a11y/useSemanticElements: a group of two buttons and a value, named by its label
  <div className="flex items-center gap-1" role="group" aria-label={label}>
    <span className="mr-1 text-xs text-muted">{label}</span>
    <Button
      variant="secondary"
      size="sm"
      className="h-7 w-7 px-0"
      aria-label={`Decrease ${label}`}
      disabled={value <= min}
      onClick={() => onChange(Math.max(min, value - 1))}
    >
      <Minus size={14} aria-hidden="true" />
    </Button>
    <output className="w-6 text-center text-sm tabular-nums" aria-live="polite" aria-label={`${label} value`}>
      {value}
    </output>
    <Button
      variant="secondary"
      size="sm"
      className="h-7 w-7 px-0"
      aria-label={`Increase ${label}`}
      disabled={value >= max}
      onClick={() => onChange(Math.min(max, value + 1))}
    >
      <Plus size={14} aria-hidden="true" />
    </Button>
  </div>
);
