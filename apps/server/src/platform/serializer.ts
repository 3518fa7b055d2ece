import type { FastifyBaseLogger } from 'fastify';
import { isResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';

type CompilerInput = Parameters<typeof serializerCompiler>[0];

/**
 * Answers are serialised through their zod response schemas (unknown fields are dropped). Stored
 * data never turns an answer into a 500: when a stored value no longer fits its response schema
 * (a row written before a limit was lowered), the answer is sent as it is and the mismatch is logged
 * as an error to fix. Tests keep the strict behaviour so a mismatch fails them.
 */
export const createSerializerCompiler =
  (log: FastifyBaseLogger, strict: boolean) =>
  (input: CompilerInput): ((data: unknown) => string) => {
    const serialize = serializerCompiler(input);
    if (strict) return serialize;
    return (data) => {
      try {
        return serialize(data);
      } catch (error) {
        if (!isResponseSerializationError(error)) throw error;
        log.error({ err: error, method: input.method, url: input.url }, 'answer does not fit its response schema');
        return JSON.stringify(data);
      }
    };
  };
