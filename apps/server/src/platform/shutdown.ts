import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * A bounded, graceful stop (SIGTERM or Ctrl+C), every step within SHUTDOWN_TIMEOUT_MS:
 *
 * 1. Not ready at once (`/api/health/ready` answers 503) and the job workers stop claiming; the
 *    running jobs are aborted and hand their rest back to the queue at their next step.
 * 2. For SHUTDOWN_DRAIN_MS requests are still served, so the load balancer takes the process out
 *    on its next health check without a client seeing a refusal.
 * 3. The listener closes; open event streams are told to reconnect and closed; requests in flight
 *    may finish until a second before the deadline, then their connections are closed.
 * 4. Jobs still running are handed back, metering and other buffered writes are flushed, the
 *    database and Redis are closed.
 */
export interface ShutdownParts {
  app: FastifyInstance;
  log: Pick<Logger, 'info' | 'warn'>;
  timeoutMs: number;
  drainMs: number;
  /** Stops the job workers, handing running jobs back after the grace given. */
  stopJobs: (graceMs: number) => Promise<void>;
  /** Writes what is buffered (metering), then closes the database and Redis. */
  flushAndClose: () => Promise<void>;
}

/** Kept for the last steps: flushing metering and closing connections. */
const FINAL_STEPS_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export const shutdownGracefully = async (parts: ShutdownParts): Promise<{ tookMs: number; forced: number }> => {
  const started = Date.now();
  const deadline = started + parts.timeoutMs;
  const left = () => deadline - Date.now() - FINAL_STEPS_MS;
  const { app, log } = parts;

  app.lifecycle.startDraining();
  const jobsStopped = parts.stopJobs(Math.max(0, left()));
  await sleep(Math.min(parts.drainMs, left()));

  const closing = app.close();
  const streams = app.lifecycle.closeEventStreams();
  const forced = await app.lifecycle.settled(left());
  if (forced > 0) {
    log.warn({ open: forced }, 'requests still open at the shutdown deadline were closed');
    app.server.closeAllConnections();
  }
  await Promise.race([closing, sleep(left())]);
  await Promise.race([jobsStopped, sleep(left())]);
  await parts.flushAndClose();
  const tookMs = Date.now() - started;
  log.info({ tookMs, streams, forced }, 'stopped');
  return { tookMs, forced };
};
