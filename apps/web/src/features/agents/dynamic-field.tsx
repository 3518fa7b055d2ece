import {
  type FieldSchema,
  fieldKind,
  isTimezoneField,
  labelFromName,
  parseNumberField,
  rangeHint,
  sliderConfig,
  usesSlider,
  validateTimezone,
} from '@switchboard/core';
import { Info, Plus, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { FieldError, Input, Textarea } from '../../components/ui/input';

/**
 * One field of a tool's input schema (spec/evaluation.md 2.5): label from the name, required
 * asterisk, help on hover, min/max hint; auto mode ('Determined by model') or a manual value.
 * `value === undefined` means auto.
 */
export const DynamicField = ({
  id,
  name,
  schema,
  required,
  value,
  onChange,
  disabled,
}: {
  id: string;
  name: string;
  schema: FieldSchema;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
}) => {
  const auto = value === undefined;
  const label = labelFromName(name);
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
          {required ? (
            <span className="text-danger">
              {' '}
              *<span className="sr-only"> (required)</span>
            </span>
          ) : null}
        </label>
        {schema.description ? (
          <span title={schema.description} className="text-muted">
            <Info size={14} aria-hidden="true" />
            <span className="sr-only">{schema.description}</span>
          </span>
        ) : null}
        <span className="ml-auto">
          {auto ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={disabled}
              onClick={() => onChange(defaultFor(schema))}
              aria-label={`Set ${label} manually`}
            >
              Set manually
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              disabled={disabled}
              onClick={() => onChange(undefined)}
              aria-label={`Reset ${label} to AI mode`}
            >
              <RotateCcw size={12} aria-hidden="true" /> AI mode
            </Button>
          )}
        </span>
      </div>
      {auto ? (
        <Input id={id} value="Determined by model" disabled readOnly />
      ) : (
        <ManualInput id={id} name={name} schema={schema} value={value} onChange={onChange} disabled={disabled} />
      )}
    </div>
  );
};

const defaultFor = (schema: FieldSchema): unknown => {
  switch (fieldKind(schema)) {
    case 'number':
    case 'integer':
      return schema.minimum ?? null;
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'text':
      return '';
    default:
      return null;
  }
};

const ManualInput = ({
  id,
  name,
  schema,
  value,
  onChange,
  disabled,
}: {
  id: string;
  name: string;
  schema: FieldSchema;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
}) => {
  const kind = fieldKind(schema);
  const [raw, setRaw] = useState(() =>
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value),
  );
  const [error, setError] = useState<string | null>(null);
  const errorId = `${id}-error`;

  if (kind === 'number' || kind === 'integer') {
    const hint = rangeHint(schema);
    if (usesSlider(name, schema)) {
      const slider = sliderConfig(schema);
      const current = typeof value === 'number' ? value : slider.min;
      return (
        <div className="flex items-center gap-3">
          <input
            id={id}
            type="range"
            min={slider.min}
            max={slider.max}
            step={slider.step}
            value={current}
            disabled={disabled}
            onChange={(event) =>
              onChange(kind === 'integer' ? Number.parseInt(event.target.value, 10) : Number(event.target.value))
            }
            className="flex-1 accent-[var(--color-primary)]"
          />
          <output htmlFor={id} className="w-14 text-right text-sm tabular-nums">
            {current}
          </output>
        </div>
      );
    }
    return (
      <>
        <Input
          id={id}
          inputMode={kind === 'integer' ? 'numeric' : 'decimal'}
          value={raw}
          disabled={disabled}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setRaw(event.target.value);
            const parsed = parseNumberField(event.target.value, schema);
            setError(parsed.error);
            if (!parsed.error) onChange(parsed.value);
          }}
        />
        {hint ? <p className="text-xs text-muted">{hint}</p> : null}
        <FieldError id={errorId}>{error}</FieldError>
      </>
    );
  }
  if (kind === 'text') {
    return (
      <>
        <Input
          id={id}
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          placeholder={isTimezoneField(name) ? 'UTC+0' : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            onChange(event.target.value);
            setError(isTimezoneField(name) && event.target.value ? validateTimezone(event.target.value) : null);
          }}
        />
        <FieldError id={errorId}>{error}</FieldError>
      </>
    );
  }
  if (kind === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
    );
  }
  if (kind === 'array') {
    const items = Array.isArray(value) ? value : [];
    const itemSchema = schema.items ?? { type: 'string' };
    return (
      <div className="space-y-2" id={id}>
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their position
          <div key={index} className="flex items-start gap-2">
            <div className="flex-1">
              <ManualInput
                id={`${id}-${index}`}
                name={name}
                schema={itemSchema}
                value={item}
                disabled={disabled}
                onChange={(next) => onChange(items.map((old, i) => (i === index ? next : old)))}
              />
            </div>
            <Button
              size="icon"
              variant="ghost"
              disabled={disabled}
              aria-label={`Remove item ${index + 1}`}
              onClick={() => {
                const next = items.filter((_, i) => i !== index);
                onChange(next.length ? next : null);
              }}
            >
              <X size={14} aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          size="sm"
          variant="secondary"
          disabled={disabled}
          onClick={() => onChange([...items, defaultFor(itemSchema)])}
        >
          <Plus size={14} aria-hidden="true" /> Add item
        </Button>
      </div>
    );
  }
  return (
    <>
      <p className="text-xs text-muted">Unsupported type: enter raw JSON</p>
      <Textarea
        id={id}
        value={raw}
        disabled={disabled}
        rows={3}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setRaw(event.target.value);
          try {
            onChange(event.target.value.trim() ? JSON.parse(event.target.value) : null);
            setError(null);
          } catch {
            setError('Enter valid JSON');
          }
        }}
      />
      <FieldError id={errorId}>{error}</FieldError>
    </>
  );
};
