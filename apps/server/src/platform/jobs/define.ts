import type { z } from 'zod';
import type { Tx } from '../../db/client';
import type { Deps } from '../deps';
import type { QueueName } from './queues';
import { DEFAULT_MAX_ATTEMPTS, type JobHandler, type JobKind } from './registry';
import { type EnqueueOptions, enqueueJob } from './store';

export interface JobDefinition<Payload> {
  type: string;
  queue: QueueName;
  /** The payload's schema: the handler gets it parsed, and a payload that does not fit fails the job. */
  schema: z.ZodType<Payload>;
  handler: JobHandler<Payload>;
  priority?: number;
  maxAttempts?: number;
}

export interface DefinedJob<Payload> extends JobKind {
  /** Queues one job of this kind (in `tx` when given: written only if the transaction commits). */
  enqueue(deps: Deps, payload: Payload, options?: Omit<EnqueueOptions, 'type' | 'payload'>, tx?: Tx): Promise<string>;
}

/** Defines a kind of job: its queue, its payload's schema and its handler, which gets the payload parsed. */
export const defineJob = <Payload>(definition: JobDefinition<Payload>): DefinedJob<Payload> => {
  const kind: JobKind = {
    type: definition.type,
    queue: definition.queue,
    priority: definition.priority ?? 0,
    maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    run: (deps, job) => definition.handler(deps, { ...job, payload: definition.schema.parse(job.payload) }),
  };
  return {
    ...kind,
    enqueue: (deps, payload, options = {}, tx) =>
      enqueueJob(
        deps,
        {
          maxAttempts: kind.maxAttempts,
          ...options,
          type: kind.type,
          queue: kind.queue,
          priority: kind.priority,
          payload: definition.schema.parse(payload),
        },
        tx,
      ),
  };
};
