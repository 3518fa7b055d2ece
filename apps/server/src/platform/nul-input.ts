import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/**
 * U+0000 (NUL) in a request. PostgreSQL refuses it in text and in JSON values, so a NUL that
 * reached a query answered 500 from any route. Refused once here, for every string of the path
 * parameters, the query, the cookies and the body (keys included), with the usual 422 naming the
 * field: before the tenant guard looks anything up, and before any route runs.
 */

const NUL = '\u0000';
/** Deeper bodies than this are not walked further (no schema of the API nests so deep). */
const MAX_DEPTH = 32;

/** The path of the first string holding NUL in a parsed value, or null when there is none. */
export const nulPathIn = (value: unknown, path: string, depth = 0): string | null => {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = nulPathIn(value[index], `${path}.${index}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key in value) {
    if (key.includes(NUL)) return path;
    const found = nulPathIn((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
};

const refuse = (field: string) =>
  new AppError('VALIDATION_ERROR', `${field}: must not contain the NUL character (U+0000)`, { field });

/** Throws the 422 when a value (a multipart field, say) holds NUL. */
export const assertNoNul = (value: unknown, field: string) => {
  const found = nulPathIn(value, field);
  if (found) throw refuse(found);
};

/** A file name as given, without NUL characters (a name is only shown, so it is kept). */
export const withoutNul = (text: string) => (text.includes(NUL) ? text.replaceAll(NUL, '') : text);

export const installNulRefusal = (app: FastifyInstance) => {
  // The path, the query and the cookies are read before the tenant guard resolves the caller.
  app.addHook('onRequest', async (request) => {
    assertNoNul(request.params, 'params');
    assertNoNul(request.query, 'query');
    assertNoNul(request.cookies, 'cookie');
  });
  // The body once parsed, before the guard's membership lookup and the route's validation.
  app.addHook('preValidation', async (request) => {
    assertNoNul(request.body, 'body');
  });
};
