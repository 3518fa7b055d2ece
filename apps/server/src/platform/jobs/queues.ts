import type { Env } from '../env';

/**
 * The queues jobs wait in. Each has workers of its own, so a long job of one kind never holds the
 * slot a reply needs: a campaign's dispatch or an evaluation run can fill its queue and the next
 * SMS a customer sends is still answered at once.
 */
export const QUEUES = {
  /** Messages a person is waiting for: an inbound SMS, WhatsApp or Instagram message, a send. */
  messages: { concurrency: 8 },
  /** Work a person watches on screen: an agent being built, test questions being written. */
  interactive: { concurrency: 2 },
  /** Campaign dispatch: bounded rounds, each handing the rest back to the queue. */
  campaigns: { concurrency: 2 },
  /** Evaluation runs: bounded steps, each handing the rest back to the queue. */
  evaluation: { concurrency: 2 },
  /** What follows a committed change: domain-event reactions from the outbox (webhook events, mail). */
  reactions: { concurrency: 2 },
  /** Outbound webhook deliveries to n8n, Make or Zapier. */
  webhooks: { concurrency: 4 },
  /** Knowledge embeddings. */
  knowledge: { concurrency: 1 },
  /** The recurring tasks (sweeps, pruning, refills). */
  maintenance: { concurrency: 1 },
} as const;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/** How many jobs of a queue one process runs at once: the default, or JOB_CONCURRENCY_<QUEUE>. */
export const concurrencyOf = (env: Env, queue: QueueName): number =>
  env.JOB_CONCURRENCY[queue] ?? QUEUES[queue].concurrency;
