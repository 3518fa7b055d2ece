import { useId, useState } from 'react';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input';

interface Base {
  label: string;
  error?: string | null;
  hint?: string;
}

export const TextField = ({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
  multiline,
  type = 'text',
}: Base & {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  multiline?: boolean;
  type?: string;
}) => {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value,
    placeholder,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  };
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {multiline ? (
        <Textarea {...common} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <Input {...common} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
      {hint ? <p className="mt-1 text-xs text-muted">{hint}</p> : null}
      <FieldError id={errorId}>{error ?? null}</FieldError>
    </div>
  );
};

export const NumberField = ({
  label,
  value,
  onChange,
  min,
  max,
  error,
  hint,
}: Base & { value: number; onChange: (value: number) => void; min: number; max: number }) => {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        min={min}
        max={max}
        value={Number.isFinite(value) ? value : ''}
        onChange={(event) => onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))}
        onBlur={() => {
          if (!Number.isFinite(value)) onChange(min);
          else if (value < min) onChange(min);
          else if (value > max) onChange(max);
        }}
      />
      {hint ? <p className="mt-1 text-xs text-muted">{hint}</p> : null}
      <FieldError>{error ?? null}</FieldError>
    </div>
  );
};

export const Toggle = ({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) => {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-3 py-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-5 w-5 accent-[var(--primary,#43c0b8)]"
      />
    </div>
  );
};

export const SelectField = <T extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: string }[];
}) => {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
};

export const ColorField = ({
  label,
  value,
  onChange,
  error,
}: Base & { value: string; onChange: (value: string) => void }) => {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={/^#[0-9a-fA-F]{6}$/.test(value) ? value : '#000000'}
          onChange={(event) => onChange(event.target.value)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-border bg-surface"
        />
        <Input id={id} value={value} onChange={(event) => onChange(event.target.value)} placeholder="#276d64" />
      </div>
      <FieldError>{error ?? null}</FieldError>
    </div>
  );
};

export const Section = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <fieldset className="space-y-3 rounded-xl border border-border p-4">
    <legend className="px-1 text-sm font-semibold">{title}</legend>
    {children}
  </fieldset>
);

export const CORNER_OPTIONS = [
  { value: 'bottom-right', label: 'Bottom right' },
  { value: 'bottom-left', label: 'Bottom left' },
  { value: 'top-right', label: 'Top right' },
  { value: 'top-left', label: 'Top left' },
] as const;

export const TYPE_OPTIONS = [
  { value: 'website', label: 'Website widget' },
  { value: 'sms', label: 'SMS' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'instagram', label: 'Instagram' },
  { value: 'standard', label: 'Standard chat' },
] as const;

export const INVALID_IMAGE_URL = 'Invalid image URL. Please enter a valid image URL.';

/** A URL field whose address must load as an image (checked when leaving the field). */
export const ImageUrlField = ({
  label,
  value,
  onChange,
  error,
}: Base & { value: string; onChange: (value: string) => void }) => {
  const id = useId();
  const [invalid, setInvalid] = useState(false);
  const check = () => {
    if (!value.trim()) return setInvalid(false);
    const image = new Image();
    image.onload = () => setInvalid(false);
    image.onerror = () => setInvalid(true);
    image.src = value.trim();
  };
  const message = error ?? (invalid ? INVALID_IMAGE_URL : null);
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        placeholder="https://"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        onChange={(event) => {
          setInvalid(false);
          onChange(event.target.value);
        }}
        onBlur={check}
      />
      <FieldError id={`${id}-error`}>{message}</FieldError>
    </div>
  );
};
