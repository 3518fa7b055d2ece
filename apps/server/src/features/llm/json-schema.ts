import type { JSONSchema7 } from '@ai-sdk/provider';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * Checks JSON answers against the JSON schema an API caller gave in `response_format`. The schema
 * goes to every provider that takes one; the answer is checked here in every case, so a provider
 * that ignores the schema cannot hand the caller JSON of another shape.
 */

const ajv = new Ajv({ allErrors: false, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** The compiled check of a schema, or an error message when the schema itself is not valid. */
export const compileJsonSchema = (schema: JSONSchema7): { validate: ValidateFunction } | { error: string } => {
  const found = compiled.get(schema);
  if (found) return { validate: found };
  try {
    // The schema's own `$schema` (draft-07, 2020-12, ...) is not looked up: its keywords are read as
    // draft-07's, which every provider's structured output accepts.
    const { $schema: _dialect, ...rest } = schema as JSONSchema7 & { $schema?: string };
    const validate = ajv.compile(rest as object);
    compiled.set(schema, validate);
    return { validate };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'not a JSON schema' };
  }
};

/** The AI SDK's validate hook: the value when it matches, an error naming the first mismatch when not. */
export const schemaValidator = (schema: JSONSchema7) => {
  const compiledSchema = compileJsonSchema(schema);
  return (value: unknown) => {
    if ('error' in compiledSchema) return { success: false as const, error: new Error(compiledSchema.error) };
    if (compiledSchema.validate(value)) return { success: true as const, value };
    const first = compiledSchema.validate.errors?.[0];
    const where = first?.instancePath || '(the answer)';
    return { success: false as const, error: new Error(`${where} ${first?.message ?? 'does not match the schema'}`) };
  };
};
