import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors';
import { newSupportId } from '../../platform/ids';

/**
 * A server-sent-event answer to a POST that starts only when the first event is ready: an error
 * before that (402 credits, 404, 422) still answers as the normal JSON envelope with its status.
 */
export interface LazySse {
  send(event: string, data: unknown): void;
  /** A `data:` line without an event name (the OpenAI stream format). */
  sendData(data: unknown): void;
  sendRaw(text: string): void;
  started(): boolean;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  end(): void;
  /** Sends the error as an `error` event when streaming has started, else rethrows it. */
  fail(error: unknown): void;
}

export const lazySse = (request: FastifyRequest, reply: FastifyReply): LazySse => {
  const controller = new AbortController();
  let open = false;
  request.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const start = () => {
    if (open) return;
    open = true;
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.flushHeaders?.();
  };
  const write = (event: string, data: unknown) => {
    if (reply.raw.destroyed) return;
    reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  return {
    signal: controller.signal,
    started: () => open,
    send(event, data) {
      start();
      write(event, data);
    },
    sendData(data) {
      start();
      if (!reply.raw.destroyed) reply.raw.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    sendRaw(text) {
      start();
      if (!reply.raw.destroyed) reply.raw.write(text);
    },
    end() {
      start();
      reply.raw.end();
    },
    fail(error) {
      if (!open) throw error;
      const supportId = newSupportId();
      const appError = error instanceof AppError ? error : null;
      request.log.warn({ err: error, supportId }, 'stream failed');
      write('error', {
        error: {
          code: appError?.code ?? 'INTERNAL_SERVER_ERROR',
          message: appError?.message ?? 'Something went wrong on our side.',
          support_id: supportId,
          ...(appError?.reason ? { reason: appError.reason } : {}),
        },
      });
      reply.raw.end();
    },
  };
};
