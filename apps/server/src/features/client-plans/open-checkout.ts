/**
 * One open checkout per client (sub-account) and purpose, the way billing/open-checkouts.ts keeps
 * one per agency: the request that inserts the row (primary key sub-account + purpose) creates the
 * session; a request arriving meanwhile, in this process or another, waits for the row to carry it
 * and answers the same URL. A row whose session is no longer open, or that sells another plan, is
 * replaced.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { type OpenCheckoutRows, type OpenCheckoutSteps, openOnce } from '../billing/open-checkouts';
import { clientOpenCheckouts } from './schema';

type Purpose = 'plan';

/** The client's row for the purpose in `client_open_checkouts`. */
const clientRows = (deps: Deps, subaccountId: string, purpose: Purpose, requestKey: string): OpenCheckoutRows => {
  const ofOwner = and(eq(clientOpenCheckouts.subaccountId, subaccountId), eq(clientOpenCheckouts.purpose, purpose));
  const ofClaim = (claimToken: string) => and(ofOwner, eq(clientOpenCheckouts.claimToken, claimToken));
  return {
    claim: async (claimToken) =>
      (
        await deps.db
          .insert(clientOpenCheckouts)
          .values({ subaccountId, purpose, requestKey, claimToken })
          .onConflictDoNothing()
          .returning({ claimToken: clientOpenCheckouts.claimToken })
      ).length > 0,
    attach: async (claimToken, session) => {
      await deps.db
        .update(clientOpenCheckouts)
        .set({ sessionId: session.id, url: session.url })
        .where(ofClaim(claimToken));
    },
    current: async () => (await deps.db.select().from(clientOpenCheckouts).where(ofOwner))[0],
    release: async (claimToken, claimedBefore) => {
      await deps.db
        .delete(clientOpenCheckouts)
        .where(and(ofClaim(claimToken), claimedBefore ? lt(clientOpenCheckouts.claimedAt, claimedBefore) : undefined));
    },
  };
};

/** Forgets the client's open checkout (paid): the next request starts a new one. */
export const forgetOpenCheckout = (deps: Deps, subaccountId: string, sessionId: string) =>
  deps.db
    .delete(clientOpenCheckouts)
    .where(and(eq(clientOpenCheckouts.subaccountId, subaccountId), eq(clientOpenCheckouts.sessionId, sessionId)));

/** The URL of the client's open checkout for this purpose and request, created once. */
export const openClientCheckoutOnce = (
  deps: Deps,
  input: { subaccountId: string; purpose: Purpose; requestKey: string },
  steps: OpenCheckoutSteps,
): Promise<string> =>
  openOnce(clientRows(deps, input.subaccountId, input.purpose, input.requestKey), input.requestKey, steps);
