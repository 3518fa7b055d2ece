import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { leaveForeground, trackForeground } from './foreground';

/**
 * The life of a server process behind a load balancer: ready, then draining once it is told to
 * stop. It keeps the requests in flight, so a stop can wait for them, and the open event streams,
 * so a stop can tell their clients to reconnect (to another process) and close them: a stream
 * never ends by itself and would hold the stop forever.
 */

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** How soon a client told to reconnect tries again (the event stream's `retry:`). */
const RECONNECT_AFTER_MS = 1_000;

export class Lifecycle {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();
  private readonly eventStreams = new Set<ServerResponse>();
  private idle: (() => void) | null = null;

  /** False once the process is stopping: `/api/health/ready` answers 503 so no new work comes. */
  get ready() {
    return !this.draining;
  }

  /** Counts a request until its answer's connection finishes or closes. */
  track(raw: ServerResponse) {
    this.inFlight.add(raw);
    trackForeground(raw);
    const done = () => {
      this.inFlight.delete(raw);
      if (this.inFlight.size === 0) this.idle?.();
    };
    raw.once('finish', done);
    raw.once('close', done);
  }

  /** An event stream that stays open until its client leaves: a stop tells it to reconnect. */
  holdEventStream(raw: ServerResponse) {
    this.eventStreams.add(raw);
    leaveForeground(raw);
    raw.once('close', () => this.eventStreams.delete(raw));
  }

  /** Requests (event streams included) whose answers are still open. */
  get openRequests() {
    return this.inFlight.size;
  }

  /** Marks the process not ready; requests are still served. */
  startDraining() {
    this.draining = true;
  }

  /**
   * Tells the clients of open event streams to reconnect in a second and ends the streams: a
   * browser's EventSource then reconnects, through the load balancer, to a process that is ready.
   */
  closeEventStreams() {
    let closed = 0;
    for (const raw of this.eventStreams) {
      if (raw.writableEnded) continue;
      raw.end(`retry: ${RECONNECT_AFTER_MS}\nevent: reconnect\ndata: {}\n\n`);
      closed += 1;
    }
    return closed;
  }

  /** Resolves once no request is open, or after `ms`; answers how many are still open. */
  async settled(ms: number): Promise<number> {
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
      this.idle = null;
    }
    return this.inFlight.size;
  }
}

/** Every request is tracked from its first hook; `app.lifecycle` is the process's lifecycle. */
export const installLifecycle = (app: FastifyInstance, lifecycle = new Lifecycle()) => {
  app.decorate('lifecycle', lifecycle);
  app.addHook('onRequest', async (_request, reply) => {
    lifecycle.track(reply.raw);
    // A keep-alive connection of a stopping process is not reused: the client's next request
    // opens a new connection, which the load balancer sends to a process that is ready.
    if (!lifecycle.ready) reply.header('connection', 'close');
  });
  return lifecycle;
};
