import type { Deps } from '../deps';
import type { QueueName } from './queues';

/** What a running job knows of itself. */
export interface JobContext<Payload = unknown> {
  id: string;
  payload: Payload;
  accountId: string | null;
  subaccountId: string | null;
  /** 1 on the first run, 2 on the first retry or restart, and so on (a handed-back step is not one). */
  attempt: number;
  maxAttempts: number;
  /**
   * Aborted when the process stops or the job's claim was lost (its heartbeat went stale and
   * another worker took it): a handler stops at its next step boundary, and whatever it writes
   * to the job afterwards is refused.
   */
  signal: AbortSignal;
}

/** A handler's answer asking to be run again later, to go on where it stopped. */
export class ContinueLater {
  constructor(readonly delayMs = 0) {}
}
/** Hands the rest of a long job back to its queue (after `delayMs`), without counting an attempt. */
export const continueLater = (delayMs = 0) => new ContinueLater(delayMs);

export type JobHandler<Payload = unknown> = (deps: Deps, job: JobContext<Payload>) => Promise<unknown>;

/** A kind of job as the workers run it: its payload is checked by `run` itself. */
export interface JobKind {
  type: string;
  queue: QueueName;
  /** Higher runs first within the queue. */
  priority: number;
  maxAttempts: number;
  /** Parses the stored payload (a payload that does not fit fails the job) and runs the handler. */
  run: JobHandler<unknown>;
}

const kinds = new Map<string, JobKind>();

export const DEFAULT_MAX_ATTEMPTS = 3;

/** Makes this process run jobs of these kinds (one registry: apps/server/src/jobs.ts). */
export const registerJobKinds = (list: readonly JobKind[]) => {
  for (const kind of list) kinds.set(kind.type, kind);
};

/** Registers a kind from its parts, its payload unchecked (tests define small kinds this way). */
export function registerJobHandler(type: string, handler: JobHandler, queue: QueueName = 'maintenance'): void {
  kinds.set(type, { type, queue, priority: 0, maxAttempts: DEFAULT_MAX_ATTEMPTS, run: handler });
}

export const jobKindOf = (type: string): JobKind | undefined => kinds.get(type);

/** The types of the kinds this process runs in a queue. */
export const typesIn = (queue: QueueName): string[] =>
  [...kinds.values()].filter((kind) => kind.queue === queue).map((kind) => kind.type);
