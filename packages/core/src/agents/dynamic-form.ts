/**
 * Pure rules of the dynamic tool and model form fields (spec/evaluation.md 2.5 and 5).
 */

/** "max_tokens" and "maxTokens" become "Max tokens"; words split on underscores and camel case. */
export const labelFromName = (name: string): string => {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const text = words.join(' ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : name;
};

export const isTimezoneField = (name: string): boolean => /timezone|time_zone/i.test(name);

export const TIMEZONE_MESSAGES = {
  format: 'Invalid timezone format. Use UTC+X or UTC-X (e.g., UTC+8, UTC-5)',
  range: 'Timezone offset must be between UTC-12 and UTC+14',
  minutes: 'Timezone minutes must be 00, 30, or 45',
} as const;

/** Null when valid, else the message. */
export const validateTimezone = (value: string): string | null => {
  const match = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return TIMEZONE_MESSAGES.format;
  const sign = match[1] === '-' ? -1 : 1;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  const offset = sign * (hours + minutes / 60);
  if (offset < -12 || offset > 14) return TIMEZONE_MESSAGES.range;
  if (![0, 30, 45].includes(minutes)) return TIMEZONE_MESSAGES.minutes;
  return null;
};

export interface FieldSchema {
  type?: string | string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  items?: FieldSchema;
  enum?: unknown[];
  default?: unknown;
}

export type FieldKind = 'number' | 'integer' | 'array' | 'text' | 'boolean' | 'unsupported';

export const fieldKind = (schema: FieldSchema): FieldKind => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'array':
      return 'array';
    case 'string':
      return 'text';
    case 'boolean':
      return 'boolean';
    default:
      return 'unsupported';
  }
};

/** A slider is used when both min and max are set, or when the name mentions duration, hour or minute. */
export const usesSlider = (name: string, schema: FieldSchema): boolean => {
  const kind = fieldKind(schema);
  if (kind !== 'number' && kind !== 'integer') return false;
  return (schema.minimum !== undefined && schema.maximum !== undefined) || /duration|hour|minute/i.test(name);
};

/** Sliders default to min 0, max 100, step 1 for integers, otherwise multipleOf or 0.1. */
export const sliderConfig = (schema: FieldSchema): { min: number; max: number; step: number } => ({
  min: schema.minimum ?? 0,
  max: schema.maximum ?? 100,
  step: fieldKind(schema) === 'integer' ? 1 : (schema.multipleOf ?? 0.1),
});

/** The min/max hint shown under a number field. */
export const rangeHint = (schema: FieldSchema): string | null => {
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `Min ${schema.minimum}, max ${schema.maximum}`;
  if (schema.minimum !== undefined) return `Min ${schema.minimum}`;
  if (schema.maximum !== undefined) return `Max ${schema.maximum}`;
  return null;
};

/**
 * Parses a number field: empty becomes null; integers use whole-number parsing; min and max of the
 * schema are honoured. Returns the value or an error message.
 */
export const parseNumberField = (raw: string, schema: FieldSchema): { value: number | null; error: string | null } => {
  const text = raw.trim();
  if (text === '') return { value: null, error: null };
  const integer = fieldKind(schema) === 'integer';
  const value = integer ? Number.parseInt(text, 10) : Number.parseFloat(text);
  if (Number.isNaN(value) || (integer ? !/^-?\d+$/.test(text) : !Number.isFinite(Number(text)))) {
    return { value: null, error: integer ? 'Enter a whole number' : 'Enter a number' };
  }
  if (schema.minimum !== undefined && value < schema.minimum)
    return { value, error: `Must be at least ${schema.minimum}` };
  if (schema.maximum !== undefined && value > schema.maximum)
    return { value, error: `Must be at most ${schema.maximum}` };
  return { value, error: null };
};

/** Validates one manual value against its field schema; null when valid. */
export const validateFieldValue = (name: string, schema: FieldSchema, value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const kind = fieldKind(schema);
  if (kind === 'text') {
    if (typeof value !== 'string') return 'Enter text';
    if (isTimezoneField(name)) return validateTimezone(value);
    return null;
  }
  if (kind === 'number' || kind === 'integer') {
    if (typeof value !== 'number' || Number.isNaN(value))
      return kind === 'integer' ? 'Enter a whole number' : 'Enter a number';
    return parseNumberField(String(value), schema).error;
  }
  if (kind === 'boolean') return typeof value === 'boolean' ? null : 'Choose true or false';
  if (kind === 'array') {
    if (!Array.isArray(value)) return 'Enter a list';
    for (const item of value) {
      const error = validateFieldValue(name, schema.items ?? {}, item);
      if (error) return error;
    }
  }
  return null;
};
