import type { Db } from '../../db/client';
import { TtlCache } from '../../platform/ttl-cache';
import { type AgentRow, findAgent } from './repo';

/** Agents read on every chat turn, kept for 2 s (writers in this process invalidate at once). */
const agents = new TtlCache<AgentRow>(2000);

export const findAgentCached = async (db: Db, agentId: string): Promise<AgentRow | null> => {
  const hit = agents.get(agentId);
  if (hit) return hit;
  const row = await findAgent(db, agentId);
  if (row) agents.set(agentId, row);
  return row;
};

export const invalidateAgent = (agentId: string) => agents.delete(agentId);
