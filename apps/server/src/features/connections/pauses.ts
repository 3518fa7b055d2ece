/**
 * Whether a channel connection is paused (from Launch). Every way into or out of it asks: the
 * public-channel gate on every visitor message, a campaign's dispatch before every send, a queued
 * answer before it goes. Kept 2 s per process and dropped in every process through the event bus
 * when it changes.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { TtlCache } from '../../platform/ttl-cache';
import { connectionPauses } from './schema';

export const CONNECTION_PAUSES_CHANNEL = 'launch:connection-pauses';
/** What a visitor reads while the channel is paused; the code CONNECTION_INACTIVE carries 'Activate Connection'. */
export const PAUSED_MESSAGE = 'This channel is paused. Its owner can activate the connection again in Launch.';

const pausedStates = new TtlCache<boolean>(2000, 20_000);
let subscribedTo: Deps | null = null;

const subscribe = (deps: Deps) => {
  if (subscribedTo === deps) return;
  subscribedTo = deps;
  pausedStates.clear();
  deps.bus.subscribe(CONNECTION_PAUSES_CHANNEL, (payload) => {
    const id = (payload as { connectionId?: string }).connectionId;
    if (id) pausedStates.delete(id);
    else pausedStates.clear();
  });
};

export const isConnectionPaused = async (deps: Deps, connectionId: string): Promise<boolean> => {
  subscribe(deps);
  return pausedStates.getOrLoad(connectionId, async () => {
    const rows = await deps.db
      .select({ id: connectionPauses.connectionId })
      .from(connectionPauses)
      .where(eq(connectionPauses.connectionId, connectionId))
      .limit(1);
    return rows.length > 0;
  });
};

/** Pauses (idempotent: pausing twice keeps the first time) and tells every process. */
export const setPaused = async (
  deps: Deps,
  target: { connectionId: string; subaccountId: string; userId: string | null },
  paused: boolean,
) => {
  await writePause(deps.db, target, paused);
  subscribe(deps);
  pausedStates.delete(target.connectionId);
  await deps.bus.publish(CONNECTION_PAUSES_CHANNEL, { connectionId: target.connectionId });
};

const writePause = async (
  db: Db,
  target: { connectionId: string; subaccountId: string; userId: string | null },
  paused: boolean,
) => {
  if (paused)
    await db
      .insert(connectionPauses)
      .values({ connectionId: target.connectionId, subaccountId: target.subaccountId, pausedBy: target.userId })
      .onConflictDoNothing();
  else await db.delete(connectionPauses).where(eq(connectionPauses.connectionId, target.connectionId));
};
