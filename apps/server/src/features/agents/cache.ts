import type { Db } from '../../db/client';
import type { EventBus, Unsubscribe } from '../../platform/event-bus';
import { TtlCache } from '../../platform/ttl-cache';
import { type AgentRow, findAgent } from './repo';

/**
 * Agents read on every chat turn. A change drops the agent at once in the process that made it
 * and, through the event bus (AGENTS_CHANNEL), in every other one, so the next turn anywhere reads
 * the changed prompt or model. The TTL only bounds how long an entry lives if the bus loses a
 * message (Redis down): the entry is read again after a minute.
 */
const agents = new TtlCache<AgentRow>(60_000, 5000);
export const AGENTS_CHANNEL = 'agents';

/** Moves on at every change, so a read that raced one is not kept. */
let changes = 0;

export const findAgentCached = async (db: Db, agentId: string): Promise<AgentRow | null> => {
  const hit = agents.get(agentId);
  if (hit) return hit;
  const seen = changes;
  const row = await findAgent(db, agentId);
  if (row && seen === changes) agents.set(agentId, row);
  return row;
};

/** Drops an agent in this process (its change committed here). */
export const invalidateAgent = (agentId: string) => {
  changes += 1;
  agents.delete(agentId);
};

/** Drops an agent in this process and tells every other process to drop it too. */
export const publishAgentChange = async (bus: EventBus, agentId: string): Promise<void> => {
  invalidateAgent(agentId);
  await bus.publish(AGENTS_CHANNEL, { agentId }).catch(() => undefined);
};

/** Makes this process drop the agents any process changed. */
export const listenForAgentChanges = (bus: EventBus): Unsubscribe =>
  bus.subscribe(AGENTS_CHANNEL, (payload) => {
    const agentId = (payload as { agentId?: unknown } | null)?.agentId;
    if (typeof agentId === 'string') invalidateAgent(agentId);
  });
