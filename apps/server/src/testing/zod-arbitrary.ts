import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries from the zod schemas of the API: values the schema accepts, biased to the
 * edges of its limits (shortest and longest strings, smallest and largest numbers, fullest arrays).
 * Refinements the walker cannot read are honoured by filtering with the schema itself.
 */
type AnySchema = z.ZodType;
interface Def {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  format?: string;
  pattern?: RegExp;
  shape?: Record<string, AnySchema>;
  element?: AnySchema;
  items?: AnySchema[];
  options?: AnySchema[];
  innerType?: AnySchema;
  in?: AnySchema;
  out?: AnySchema;
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: AnySchema;
  valueType?: AnySchema;
  left?: AnySchema;
  right?: AnySchema;
  getter?: () => AnySchema;
  coerce?: boolean;
}

const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const checksOf = (def: Def) => (def.checks ?? []).map((check) => check._zod.def);

const lengthBounds = (def: Def, fallbackMax: number) => {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum as number);
    if (check.check === 'max_length') max = Math.min(max, check.maximum as number);
    if (check.check === 'length_equals') {
      min = check.length as number;
      max = check.length as number;
    }
  }
  return { min, max: Number.isFinite(max) ? max : Math.max(min, fallbackMax) };
};

/** Past this length a string is a short random piece repeated: drawing each character costs seconds. */
const DRAWN_LENGTH = 256;

/** A string of exactly `length` characters. */
const stringOfLength = (length: number): fc.Arbitrary<string> =>
  length <= DRAWN_LENGTH
    ? fc.string({ unit: 'grapheme-ascii', minLength: length, maxLength: length })
    : fc
        .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 })
        .map((piece) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

/** Strings of exactly the edge lengths, and some in between. */
const edgeString = (min: number, max: number): fc.Arbitrary<string> => {
  const word = fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, min + 12) });
  const letters = fc
    .string({
      unit: fc.constantFrom(...'abcdefghij'),
      minLength: Math.max(min, 1),
      maxLength: Math.min(max, min + DRAWN_LENGTH),
    })
    .filter((value) => value.length >= min);
  return fc.oneof(stringOfLength(min), stringOfLength(max), word, letters);
};

const stringArbitrary = (def: Def): fc.Arbitrary<string> => {
  const checks = checksOf(def);
  const format = def.format ?? (checks.find((check) => check.check === 'string_format')?.format as string);
  const pattern =
    def.pattern ?? (checks.find((check) => check.check === 'string_format' && check.pattern)?.pattern as RegExp);
  const { min, max } = lengthBounds(def, 200);
  const fit = (arbitrary: fc.Arbitrary<string>) =>
    arbitrary.filter((value) => value.length >= min && value.length <= max);
  switch (format) {
    case 'email': {
      const local = fc.stringMatching(/^[a-z0-9]{1,30}(\.[a-z0-9]{1,20})?$/);
      const domain = fc.constantFrom('example.com', 'mail.example.org', 'agency.test');
      const longest = fc.constant(`${'a'.repeat(64)}@${'b'.repeat(60)}.example.com`);
      return fit(
        fc.oneof(
          fc.tuple(local, domain).map(([name, host]) => `${name}@${host}`),
          longest,
        ),
      );
    }
    case 'url':
      return fit(fc.webUrl({ validSchemes: ['https'] }));
    case 'uuid':
    case 'guid':
      return fc.uuid();
    case 'datetime':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    default:
      break;
  }
  if (pattern) return fit(fc.stringMatching(new RegExp(pattern.source, pattern.flags.replace('g', ''))));
  return edgeString(min, max);
};

const numberArbitrary = (def: Def): fc.Arbitrary<number> => {
  let min = -1_000_000;
  let max = 1_000_000;
  for (const check of checksOf(def)) {
    if (check.check === 'greater_than') min = (check.value as number) + (check.inclusive ? 0 : 1);
    if (check.check === 'less_than') max = (check.value as number) - (check.inclusive ? 0 : 1);
  }
  const formats = [
    def.format,
    ...checksOf(def)
      .filter((check) => check.check === 'number_format')
      .map((check) => check.format),
  ];
  const integer = formats.some((format) => format === 'safeint' || format === 'int32' || format === 'uint32');
  if (integer) {
    const [low, high] = [Math.ceil(min), Math.floor(max)];
    return fc.oneof(fc.constant(low), fc.constant(high), fc.integer({ min: low, max: high }));
  }
  return fc.oneof(fc.constant(min), fc.constant(max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
};

/** Whether the walker cannot read all of a node's rules: a `.refine` or `.superRefine` on it. */
const isRefined = (schema: AnySchema) => checksOf(defOf(schema)).some((check) => check.check === 'custom');

/**
 * A refined node draws a few candidates and keeps the first its schema accepts, so a refused value
 * is drawn again where it stands, not with the whole payload around it. When none is accepted (a
 * refinement no random value meets, such as a known id), the first is kept: an array drops it, and
 * anywhere else the payload's own filter refuses it.
 */
const walk = (schema: AnySchema, depth: number): fc.Arbitrary<unknown> => {
  const arbitrary = walkShape(schema, depth);
  if (!isRefined(schema)) return arbitrary;
  return fc
    .array(arbitrary, { minLength: 3, maxLength: 3 })
    .map((candidates) => candidates.find((value) => schema.safeParse(value).success) ?? candidates[0]);
};

const walkShape = (schema: AnySchema, depth: number): fc.Arbitrary<unknown> => {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'bigint':
      return fc.bigInt({ min: -1000n, max: 1000n });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.date({ noInvalidDate: true });
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'any':
    case 'unknown':
      return fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'optional':
      return fc.option(walk(def.innerType as AnySchema, depth), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(walk(def.innerType as AnySchema, depth), { nil: null, freq: 3 });
    case 'default':
    case 'prefault':
      return fc.option(walk(def.innerType as AnySchema, depth), { nil: undefined, freq: 3 });
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return walk(def.innerType as AnySchema, depth);
    case 'pipe': {
      // A string cleaned then checked (`.trim().pipe(z.email())`): generate what the checked side wants.
      const inner = defOf(def.in as AnySchema);
      const out = defOf(def.out as AnySchema);
      if (inner.type === 'string' && out.type === 'string') return walk(def.out as AnySchema, depth);
      return walk(def.in as AnySchema, depth);
    }
    case 'lazy':
      return depth > 3 ? fc.constant(undefined) : walk((def.getter as () => AnySchema)(), depth + 1);
    case 'array': {
      const { min, max } = lengthBounds(def, 4);
      const elementSchema = def.element as AnySchema;
      const element = walk(elementSchema, depth + 1);
      const arrays = fc.oneof(
        fc.array(element, { minLength: min, maxLength: Math.min(max, min + 3) }),
        fc.array(element, { minLength: Math.min(max, 25), maxLength: Math.min(max, 25) }),
      );
      return isRefined(elementSchema)
        ? arrays.map((items) => items.filter((item) => elementSchema.safeParse(item).success))
        : arrays;
    }
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map((item) => walk(item, depth + 1)));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => walk(option, depth + 1)));
    case 'intersection':
      return fc
        .tuple(walk(def.left as AnySchema, depth + 1), walk(def.right as AnySchema, depth + 1))
        .map(([left, right]) => ({ ...(left as object), ...(right as object) }));
    case 'record':
      return fc.dictionary(
        walk(def.keyType as AnySchema, depth + 1) as fc.Arbitrary<string>,
        walk(def.valueType as AnySchema, depth + 1),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = def.shape ?? {};
      const entries = Object.entries(shape);
      const optional = (field: AnySchema) =>
        (field as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
      return fc.record(Object.fromEntries(entries.map(([key, field]) => [key, walk(field, depth + 1)])), {
        requiredKeys: entries.filter(([, field]) => !optional(field)).map(([key]) => key),
      });
    }
    default:
      throw new Error(`zod-arbitrary: no arbitrary for zod type "${def.type}"`);
  }
};

/** Values `schema` accepts (as input), edges first; drops the few a refinement refuses. */
export const arbitraryFor = <T extends AnySchema>(schema: T): fc.Arbitrary<z.input<T>> =>
  walk(schema, 0)
    .map((value) => (value && typeof value === 'object' && !Array.isArray(value) ? dropUndefined(value) : value))
    .filter((value) => schema.safeParse(value).success) as fc.Arbitrary<z.input<T>>;

const dropUndefined = (value: object) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
