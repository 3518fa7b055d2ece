import type { TErrorEnvelope } from '@switchboard/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from './errors';
import { newSupportId } from './ids';

const envelope = (code: string, message: string, extra: { field?: string; reason?: string } = {}) => {
  const supportId = newSupportId();
  const body: TErrorEnvelope = { error: { code, message, support_id: supportId, ...extra } };
  return { body, supportId };
};

export const sendError = (
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: { field?: string; reason?: string } = {},
) => {
  const { body, supportId } = envelope(code, message, extra);
  reply.request.log.info({ supportId, code, status }, message);
  return reply.status(status).type('application/json').send(body);
};

const fieldOf = (path: PropertyKey[]): string | undefined =>
  path.length ? path.map((part) => String(part)).join('.') : undefined;

/** One place that turns every thrown thing into the error envelope and its status. */
export const installErrorHandler = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendError(reply, error.status, error.code, error.message, { field: error.field, reason: error.reason });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'body';
      const path = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') || undefined;
      const field = path ?? (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
      const message = first?.message ?? 'Invalid input';
      return sendError(reply, 422, 'VALIDATION_ERROR', field ? `${field}: ${message}` : message, {
        field: field ? `${where}.${field}` : where,
      });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      return sendError(reply, 422, 'VALIDATION_ERROR', first?.message ?? 'Invalid input', {
        field: first ? fieldOf(first.path) : undefined,
      });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fastifyError.statusCode === 413) {
      return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    }
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fastifyError.statusCode === 415) {
      return sendError(reply, 415, 'BAD_REQUEST', 'Unsupported content type; send application/json');
    }
    if (
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (error instanceof SyntaxError && fastifyError.statusCode === 400)
    ) {
      return sendError(reply, 400, 'BAD_REQUEST', 'Malformed JSON body', { field: 'body' });
    }
    if (fastifyError.statusCode === 429) {
      return sendError(reply, 429, 'RATE_LIMIT_EXCEEDED', 'Too many requests. Please wait a moment.');
    }
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return sendError(reply, fastifyError.statusCode, 'BAD_REQUEST', fastifyError.message);
    }
    const { body, supportId } = envelope('INTERNAL_SERVER_ERROR', 'Something went wrong on our side.');
    request.log.error({ err: error, supportId, serialization: isResponseSerializationError(error) }, 'unhandled error');
    return reply.status(500).type('application/json').send(body);
  });
};
