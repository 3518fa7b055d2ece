import { Ajv, type ValidateFunction } from 'ajv';
import { regexProblem } from './checks';

/**
 * The schemas of json_schema checks. Compiled once by their text (a run asks the same few on every
 * conversation); compiled schemas are not kept in the Ajv instance (`addUsedSchema: false`), so two
 * checks with the same `$id` do not collide. A `pattern` is model output matched by user input, so
 * it passes the same guard as a regex check.
 */

const ajv = new Ajv({ allErrors: false, strict: false, addUsedSchema: false });
const compiled = new Map<string, { validate: ValidateFunction } | { error: string }>();
const COMPILED_MAX = 200;

/** The `pattern` and `patternProperties` regexes anywhere in a schema. */
const patternsOf = (value: unknown, found: string[] = []): string[] => {
  if (Array.isArray(value)) for (const item of value) patternsOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'pattern' && typeof item === 'string') found.push(item);
      if (key === 'patternProperties' && item && typeof item === 'object') found.push(...Object.keys(item));
      patternsOf(item, found);
    }
  }
  return found;
};

export const compileCheckSchema = (
  schema: Record<string, unknown>,
): { validate: ValidateFunction } | { error: string } => {
  const key = JSON.stringify(schema);
  const found = compiled.get(key);
  if (found) return found;
  let value: { validate: ValidateFunction } | { error: string };
  const unsafe = patternsOf(schema)
    .map((pattern) => regexProblem(pattern))
    .find(Boolean);
  if (unsafe) value = { error: `A pattern in the schema is refused: ${unsafe}` };
  else {
    try {
      // The `$schema` dialect is not looked up: the keywords are read as Ajv's default draft.
      const { $schema: _dialect, ...rest } = schema;
      value = { validate: ajv.compile(rest) };
    } catch (error) {
      value = { error: error instanceof Error ? error.message : 'not a JSON schema' };
    }
  }
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(key, value);
  return value;
};

/** Why a schema is refused at save, or null when it compiles. */
export const schemaProblem = (schema: Record<string, unknown>): string | null => {
  const value = compileCheckSchema(schema);
  return 'error' in value ? `The JSON schema is not valid: ${value.error}` : null;
};
