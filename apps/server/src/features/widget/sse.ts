import type { FastifyReply, FastifyRequest } from 'fastify';
import { writeAtOnce } from '../../platform/http';

export interface SseStream {
  send(event: string, data: unknown): void;
  close(): void;
  readonly closed: boolean;
}

/**
 * Takes over the reply as a server-sent-event stream. A comment line is sent every 15 s so
 * proxies keep the connection open; `onClose` runs once when either side ends it. A stopping
 * process tells the client to reconnect and ends it (platform/lifecycle.ts).
 */
export const openSse = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: { headers?: Record<string, string>; onClose?: () => void } = {},
): SseStream => {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...options.headers,
  });
  raw.write(': open\n\n');
  request.server.lifecycle.holdEventStream(raw);
  let closed = false;
  let sent = false;
  const keepAlive = setInterval(() => raw.write(': ping\n\n'), 15_000);
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    options.onClose?.();
  };
  request.raw.on('close', finish);
  raw.on('close', finish);
  return {
    get closed() {
      return closed;
    },
    send(event, data) {
      if (closed) return;
      const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      // The first event (a reply's first words) leaves at once; later ones in a tick leave together.
      if (sent) raw.write(text);
      else writeAtOnce(raw, text);
      sent = true;
    },
    close() {
      if (!closed) raw.end();
      finish();
    },
  };
};
