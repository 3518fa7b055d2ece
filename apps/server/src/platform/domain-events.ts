/**
 * Domain events: how one feature reacts to another's change without importing it, so features
 * import only downward. The feature that changes something publishes what happened, inside the
 * transaction of the change when there is one; each feature that must act on it has a reaction,
 * defined beside its own code with `defineReaction` and listed once in apps/server/src/reactions.ts.
 *
 * A reaction says when it runs:
 * - `with-change`: in the publisher's transaction, before it commits: a check that may refuse the
 *   change (a sub-account over the plan), or a write that must commit with it (a commission with
 *   its paid invoice). An error fails the change.
 * - `after-commit`: from the outbox. The publisher's transaction writes one job per such reaction
 *   (the `jobs` table is the outbox), so the reaction exists if and only if the change committed,
 *   and a process dying after the commit loses nothing. It runs on any process, retried with
 *   backoff until it succeeds; its writes and the mark that it ran commit together, so a job run
 *   again after a crash does not act twice. Side effects outside live here: webhook events, mail.
 * - `every-process`: in every process, through the event bus (Redis, PostgreSQL's LISTEN/NOTIFY,
 *   or this process alone): what a process keeps in memory, such as clients of a changed API key.
 */
import { ZOrigin, ZRunProgress } from '@switchboard/core';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client';
import type { Deps } from './deps';
import { newId } from './ids';
import { defineJob, jobRowOf, RetryableJobError, wakeWorkersFor } from './jobs';

import { jobs } from './jobs.schema';

/** Every domain event with the schema of its payload; a reaction reads the parsed payload. */
export const DOMAIN_EVENTS = {
  /**
   * A chat message was stored. The message writer gathers messages into batches of one statement,
   * so its reactions are `after-commit` only: their outbox rows are part of that statement.
   */
  'message.stored': z.object({
    subaccountId: z.string(),
    threadId: z.string(),
    /** The turn's origin: a test's message is stored and shown, never announced outside. */
    origin: ZOrigin,
    message: z.object({
      id: z.string(),
      role: z.enum(['user', 'assistant', 'human']),
      content: z.string(),
      model: z.string().nullable(),
    }),
    /** Set when the message started its thread. */
    newThread: z
      .object({ agentId: z.string(), channel: z.string(), contactIdentifier: z.string().nullish() })
      .optional(),
  }),
  /**
   * A site identified its signed-in visitor to the widget (verified). The thread's channel says
   * whose conversation it is, so the reaction reads the origin from it.
   */
  'lead.identified': z.object({
    subaccountId: z.string(),
    threadId: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable().optional(),
  }),
  /**
   * An evaluation run completed or failed. It is the agency's own notice about its run, not
   * something the run's conversations did (those carry the evaluation origin), so it has no origin.
   */
  'evaluation.finished': z.object({
    subaccountId: z.string(),
    runId: z.string(),
    evaluationId: z.string(),
    name: z.string(),
    agentId: z.string().nullable(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    offline: z.boolean(),
    testingModel: z.string(),
    error: z.string().nullable(),
    progress: ZRunProgress,
  }),
  /** A paid invoice was recorded, inside the transaction that grants its credits (an account's, no origin). */
  'invoice.paid': z.object({ accountId: z.string(), invoiceId: z.string(), amountPaid: z.number() }),
  /**
   * A paid invoice was refunded or disputed, or a dispute of it was won: `reversedFraction` is the
   * share of it reversed now, over all its refunds and disputes (0 after a dispute won). Published
   * in the transaction that takes its credits back; `eventId` is the provider event's id.
   */
  'invoice.reversed': z.object({
    accountId: z.string(),
    invoiceId: z.string(),
    reversedFraction: z.number().min(0).max(1),
    eventId: z.string(),
  }),
  /**
   * The account's balance fell to a low-balance threshold it set, claimed once per threshold and
   * period. It is the account's real balance whatever spent it, so it has no origin.
   */
  'credits.low': z.object({
    accountId: z.string(),
    remaining: z.number(),
    total: z.number(),
    thresholdPercent: z.number(),
  }),
  /**
   * An account's plan changed (a subscription started, moved to another tier or ended), inside the
   * transaction that records it; `features` are the new plan's feature switches.
   */
  'plan.changed': z.object({
    accountId: z.string(),
    planCode: z.string(),
    tierCode: z.string(),
    features: z.record(z.string(), z.boolean()),
  }),
  /** An account's AI provider key was saved or removed (this process's clients of it are dropped). */
  'provider_key.changed': z.object({ accountId: z.string() }),
  /**
   * An agency added a sub-account (not the first one, made with a new agency), inside the
   * transaction that creates it: billing refuses one over the plan's limit there.
   */
  'subaccount.created': z.object({ accountId: z.string(), subaccountId: z.string() }),
} as const;

export type DomainEvent = keyof typeof DOMAIN_EVENTS;
export type DomainEventPayload<E extends DomainEvent> = z.infer<(typeof DOMAIN_EVENTS)[E]>;

/**
 * Events that happen once per key, whoever publishes them again and on whichever process: their
 * outbox rows take the key as the event's id, so a second publication of it queues nothing while
 * the first one's jobs are kept (JOB_RETENTION_HOURS).
 */
const ONCE_PER_KEY: { [E in DomainEvent]?: (payload: DomainEventPayload<E>) => string } = {
  // A widget sends the identity on every message; the lead is announced once per thread and address.
  'lead.identified': (lead) => `lead:${lead.threadId}:${lead.email ?? ''}:${lead.phone ?? ''}`,
};

export type ReactionTiming = 'with-change' | 'after-commit' | 'every-process';

export interface Reaction<E extends DomainEvent = DomainEvent> {
  event: E;
  /** Unique among reactions: registering a name again replaces the reaction. */
  name: string;
  /** When it runs (see the top of this file); `with-change` unless said. */
  runs?: ReactionTiming;
  /**
   * For an `after-commit` reaction: whether this event concerns it (a cheap, cached check), so
   * nothing is written to the outbox for an event nobody acts on. Every event when absent.
   */
  wants?: (deps: Deps, payload: DomainEventPayload<E>) => boolean | Promise<boolean>;
  /**
   * Acts on the event. `tx` is the publisher's transaction (`with-change`, when published in
   * one) or the transaction its outbox job runs in (`after-commit`), and `deps.db` is that
   * transaction too: what the reaction writes commits with the change, or with the mark that the
   * reaction ran.
   */
  handle: (deps: Deps, payload: DomainEventPayload<E>, tx?: Tx) => Promise<void>;
}

/** A reaction of any event, as the registry holds it. */
export type AnyReaction = { [E in DomainEvent]: Reaction<E> }[DomainEvent];

export const defineReaction = <E extends DomainEvent>(reaction: Reaction<E>): Reaction<E> => reaction;

/**
 * The dependencies as a reaction inside a transaction sees them: its reads and writes through
 * `deps.db` go through the transaction (an embedded database has one connection, which the
 * transaction holds).
 */
const inTransaction = (deps: Deps, tx?: Tx): Deps => (tx ? { ...deps, db: tx as unknown as Deps['db'] } : deps);

const timingOf = (reaction: { runs?: ReactionTiming }): ReactionTiming => reaction.runs ?? 'with-change';

const byName = new Map<string, AnyReaction>();
let byEvent = new Map<DomainEvent, AnyReaction[]>();

/** Makes this process run these reactions (one list: apps/server/src/reactions.ts). */
export const registerReactions = (list: readonly AnyReaction[]) => {
  for (const reaction of list) byName.set(reaction.name, reaction);
  byEvent = new Map();
  for (const reaction of byName.values())
    byEvent.set(reaction.event, [...(byEvent.get(reaction.event) ?? []), reaction]);
};

/** Removes a reaction by name (tests that register one of their own). */
export const unregisterReaction = (name: string) => {
  byName.delete(name);
  registerReactions([]);
};

const reactionsOf = <E extends DomainEvent>(event: E, timing: ReactionTiming) =>
  ((byEvent.get(event) ?? []) as Reaction<E>[]).filter((reaction) => timingOf(reaction) === timing);

const REACTION_JOB = 'domain-event.react';
/** Runs of an outbox reaction before it fails for good: backoff from 1 s to 15 min spans about an hour. */
const REACTION_ATTEMPTS = 12;

/** The outbox rows of an event: one job per `after-commit` reaction that wants it. */
export type OutboxRow = ReturnType<typeof jobRowOf>;

/**
 * The outbox rows of an event, for a publisher that writes them itself with its change (the chat
 * message writer, whose batches are single statements); `publish` writes them for every other.
 */
export const outboxRowsOf = async <E extends DomainEvent>(
  deps: Deps,
  event: E,
  payload: DomainEventPayload<E>,
  tx?: Tx,
): Promise<OutboxRow[]> => {
  const reactions = reactionsOf(event, 'after-commit');
  if (!reactions.length) return [];
  const parsed = DOMAIN_EVENTS[event].parse(payload) as DomainEventPayload<E>;
  const eventId = ONCE_PER_KEY[event]?.(parsed) ?? newId('domainEvent');
  const rows: OutboxRow[] = [];
  for (const reaction of reactions) {
    if (reaction.wants && !(await reaction.wants(inTransaction(deps, tx), parsed))) continue;
    rows.push(
      jobRowOf({
        type: REACTION_JOB,
        payload: { eventId, event, reaction: reaction.name, payload: parsed },
        idempotencyKey: `${eventId}:${reaction.name}`,
      }),
    );
  }
  return rows;
};

/** Writes outbox rows in the change's transaction; their workers are woken once it can have committed. */
const writeOutbox = async (deps: Deps, rows: OutboxRow[], tx?: Tx) => {
  if (!rows.length) return;
  await (tx ?? deps.db).insert(jobs).values(rows).onConflictDoNothing();
  wakeWorkersFor(rows, Boolean(tx));
};

/** The event-bus channel of `every-process` reactions. */
const EVERY_PROCESS_CHANNEL = 'domain-events';

/** Makes this process run the `every-process` reactions of events published by any process. */
export const listenForDomainEvents = (deps: Deps) =>
  deps.bus.subscribe(EVERY_PROCESS_CHANNEL, (message) => {
    const { event, payload } = message as { event: DomainEvent; payload: unknown };
    const schema = DOMAIN_EVENTS[event];
    if (!schema) return;
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return;
    for (const reaction of reactionsOf(event, 'every-process')) {
      void reaction
        .handle(deps, parsed.data as never)
        .catch((error: unknown) => deps.log.warn({ err: error, reaction: reaction.name }, 'reaction failed'));
    }
  });

/**
 * Tells the reactions of `event` what happened, inside `tx` when given: the `with-change` ones run
 * now, in order (an error reaches the publisher, and inside a transaction rolls the change back);
 * the `after-commit` ones are written to the outbox, in `tx` when given; the `every-process` ones
 * are told through the event bus.
 */
export const publish = async <E extends DomainEvent>(
  deps: Deps,
  event: E,
  payload: DomainEventPayload<E>,
  tx?: Tx,
): Promise<void> => {
  if (!byEvent.get(event)?.length) return;
  const parsed = DOMAIN_EVENTS[event].parse(payload) as DomainEventPayload<E>;
  for (const reaction of reactionsOf(event, 'with-change')) await reaction.handle(inTransaction(deps, tx), parsed, tx);
  await writeOutbox(deps, await outboxRowsOf(deps, event, parsed, tx), tx);
  if (reactionsOf(event, 'every-process').length)
    await deps.bus.publish(EVERY_PROCESS_CHANNEL, { event, payload: parsed });
};

/** The mark, in the job's row, that its reaction's writes are committed. */
const APPLIED = { applied: true };

/**
 * Runs one `after-commit` reaction of one event (an outbox job). The reaction runs in a
 * transaction that first marks the job applied: a job run again after its reaction committed
 * (the process died before the job was finished) finds the mark and does nothing.
 */
export const reactionJob = defineJob({
  type: REACTION_JOB,
  queue: 'reactions',
  maxAttempts: REACTION_ATTEMPTS,
  schema: z.object({
    eventId: z.string(),
    event: z.enum(Object.keys(DOMAIN_EVENTS) as [DomainEvent, ...DomainEvent[]]),
    reaction: z.string(),
    payload: z.unknown(),
  }),
  handler: async (deps, job) => {
    const { event, reaction: name } = job.payload;
    const reaction = byName.get(name);
    if (!reaction || reaction.event !== event) throw new Error(`No reaction ${name} to ${event} in this version`);
    const payload = DOMAIN_EVENTS[event].parse(job.payload.payload);
    try {
      await deps.db.transaction(async (tx) => {
        const marked = await tx
          .update(jobs)
          .set({ result: APPLIED })
          .where(sql`${jobs.id} = ${job.id} AND ${jobs.result} IS NULL`)
          .returning({ id: jobs.id });
        if (!marked[0]) return;
        await (reaction as Reaction).handle(inTransaction(deps, tx), payload as never, tx);
      });
    } catch (error) {
      throw new RetryableJobError(error instanceof Error ? error.message : String(error));
    }
    return APPLIED;
  },
});
