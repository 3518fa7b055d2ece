import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors';
import { writeAtOnce } from '../../platform/http';
import { newSupportId } from '../../platform/ids';

/**
 * A server-sent-event answer to a POST that starts only when the first event is ready: an error
 * before that (402 credits, 404, 422) still answers as the normal JSON envelope with its status.
 * The headers leave with the first event, at once; later events written in one go (a model's chunk
 * often holds several tokens) leave together: one write to the socket each, not one per token.
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
  };
  let sent = false;
  /** The first event (with the headers) leaves at once; later ones in the same tick leave together. */
  const push = (text: string) => {
    const raw = reply.raw;
    if (raw.destroyed) return;
    if (sent) {
      raw.write(text);
      return;
    }
    sent = true;
    writeAtOnce(raw, text);
  };
  const write = (event: string, data: unknown) => push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  return {
    signal: controller.signal,
    started: () => open,
    send(event, data) {
      start();
      write(event, data);
    },
    sendData(data) {
      start();
      push(`data: ${JSON.stringify(data)}\n\n`);
    },
    sendRaw(text) {
      start();
      push(text);
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
