import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { senderProfiles } from '../conversations/schema';
import type { Channel } from './connections';
import { metaTransportOf } from './instagram';

/** A profile that could not be read is asked for again after this long. */
const RETRY_UNREADABLE_MS = 86_400_000;

/**
 * Reads the user profile (username, name) behind an Instagram-scoped id through Meta's User Profile
 * API the first time the id writes to a connection, and caches it on the contact's profile row.
 * A profile Meta does not share (no consent, a deleted account, Meta unreachable) is recorded as
 * unreadable: lists then show the id, and the profile is asked for again a day later. Never throws:
 * the person is answered either way.
 */
export const rememberInstagramProfile = async (deps: Deps, channel: Channel, instagramScopedId: string) => {
  if (channel.connection.type !== 'instagram' || channel.account.transport !== 'meta') return;
  const key = and(
    eq(senderProfiles.channelRef, channel.connection.id),
    eq(senderProfiles.contactIdentifier, instagramScopedId),
  );
  const [known] = await deps.db.select().from(senderProfiles).where(key).limit(1);
  if (known && (known.readAt || Date.now() - known.attemptedAt.getTime() < RETRY_UNREADABLE_MS)) return;
  let profile: { username: string | null; name: string | null } | null = null;
  try {
    profile = await metaTransportOf(deps, channel.account).profile(instagramScopedId);
  } catch (error) {
    deps.log.info(
      { connectionId: channel.connection.id, reason: (error as Error).message },
      'instagram profile not readable',
    );
  }
  const now = new Date();
  const values = {
    username: profile?.username ?? null,
    name: profile?.name ?? null,
    readAt: profile && (profile.username || profile.name) ? now : null,
    attemptedAt: now,
  };
  await deps.db
    .insert(senderProfiles)
    .values({
      channelRef: channel.connection.id,
      contactIdentifier: instagramScopedId,
      subaccountId: channel.connection.subaccountId,
      ...values,
    })
    .onConflictDoUpdate({ target: [senderProfiles.channelRef, senderProfiles.contactIdentifier], set: values });
};
