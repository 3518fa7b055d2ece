/**
 * Domain events: how one feature reacts to another's change without importing it, so features
 * import only downward. The feature that changes something publishes what happened; each feature
 * that must act on it has a reaction, defined beside its own code with `defineReaction` and listed
 * once in apps/server/src/reactions.ts.
 *
 * Reactions run in this process, one after another in the order of that list. Given the
 * publisher's transaction, a reaction writes in it: what it writes commits or rolls back with the
 * change (a commission with its paid invoice), and a reaction that throws fails the change, as a
 * direct call would. Without a transaction the publisher decides what an error means.
 */
import { ZOrigin, ZRunProgress } from '@switchboard/core';
import { z } from 'zod';
import type { Tx } from '../db/client';
import type { Deps } from './deps';

/** Every domain event with the schema of its payload; a reaction reads the parsed payload. */
export const DOMAIN_EVENTS = {
  /** A chat message was stored (after its write; the writer gathers messages, so no transaction). */
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
   * The account's balance fell to a low-balance threshold it set, claimed once per threshold and
   * period. It is the account's real balance whatever spent it, so it has no origin.
   */
  'credits.low': z.object({
    accountId: z.string(),
    remaining: z.number(),
    total: z.number(),
    thresholdPercent: z.number(),
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

export interface Reaction<E extends DomainEvent = DomainEvent> {
  event: E;
  /** Unique among reactions: registering a name again replaces the reaction. */
  name: string;
  /** Runs with the publisher's transaction when the event was published inside one. */
  handle: (deps: Deps, payload: DomainEventPayload<E>, tx?: Tx) => Promise<void>;
}

/** A reaction of any event, as the registry holds it. */
export type AnyReaction = { [E in DomainEvent]: Reaction<E> }[DomainEvent];

export const defineReaction = <E extends DomainEvent>(reaction: Reaction<E>): Reaction<E> => reaction;

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

/**
 * Tells the reactions of `event` what happened, in order; inside `tx` when given. An error of a
 * reaction reaches the publisher (inside a transaction it rolls the change back).
 */
export const publish = async <E extends DomainEvent>(
  deps: Deps,
  event: E,
  payload: DomainEventPayload<E>,
  tx?: Tx,
): Promise<void> => {
  const reactions = byEvent.get(event) as Reaction<E>[] | undefined;
  if (!reactions?.length) return;
  const parsed = DOMAIN_EVENTS[event].parse(payload) as DomainEventPayload<E>;
  for (const reaction of reactions) await reaction.handle(deps, parsed, tx);
};
