/**
 * One open checkout per account and purpose ('plan' or 'pack'). The request that inserts the
 * account's row for the purpose (primary key account + purpose) creates the provider session; a
 * request arriving meanwhile, in this process or another, waits for that row to carry its session
 * and answers the same URL. A row whose session is no longer open (paid, expired), or that sells
 * something else (another price or coupon), is deleted and claimed anew.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newKey } from '../../platform/ids';
import { openCheckouts } from './schema';

export type CheckoutPurpose = 'plan' | 'pack';

/** A claim without a session after this long belongs to a request that died: it is taken over. */
const STALE_CLAIM_MS = 2 * 60_000;
/** How long a request waits for another request's session before giving up. */
const WAIT_MS = 60_000;
const POLL_MS = 25;

export interface OpenCheckoutSteps {
  /** Creates the provider session (the claimant only). */
  create: () => Promise<{ id: string; url: string }>;
  /** Whether a stored session can still be paid. */
  isOpen: (sessionId: string) => Promise<boolean>;
  /** Expires a stored session that is being replaced by one selling something else. */
  expire: (sessionId: string) => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A claim row as the loop reads it. */
interface ClaimRow {
  claimToken: string;
  requestKey: string;
  sessionId: string | null;
  url: string | null;
  claimedAt: Date;
}

/** The claim row of one owner and purpose in the table that keeps that kind of open checkout. */
export interface OpenCheckoutRows {
  /** Inserts the claim; false when a row exists already. */
  claim(claimToken: string): Promise<boolean>;
  attach(claimToken: string, session: { id: string; url: string }): Promise<void>;
  current(): Promise<ClaimRow | undefined>;
  /** Deletes the row of this claim (only while claimed before `claimedBefore`, when given). */
  release(claimToken: string, claimedBefore?: Date): Promise<void>;
}

/**
 * The URL of the open checkout for this request, created once: the loop shared by the agency's
 * checkouts (below) and its clients' (client-plans/open-checkout.ts).
 */
export const openOnce = async (rows: OpenCheckoutRows, requestKey: string, steps: OpenCheckoutSteps) => {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const claimToken = newKey();
    if (await rows.claim(claimToken)) {
      try {
        const session = await steps.create();
        await rows.attach(claimToken, session);
        return session.url;
      } catch (error) {
        await rows.release(claimToken);
        throw error;
      }
    }
    const row = await rows.current();
    if (!row) continue;
    if (!row.sessionId || !row.url) {
      // Another request is creating the session: wait for it, or take over a claim it left behind.
      const staleBefore = new Date(Date.now() - STALE_CLAIM_MS);
      if (row.claimedAt.getTime() < staleBefore.getTime()) await rows.release(row.claimToken, staleBefore);
      else await sleep(POLL_MS);
      continue;
    }
    const open = await steps.isOpen(row.sessionId);
    if (open && row.requestKey === requestKey) return row.url;
    if (open) await steps.expire(row.sessionId);
    await rows.release(row.claimToken);
  }
  throw new AppError('BILLING_STRIPE_ERROR', 'The checkout is still being prepared. Please retry in a moment.', {
    status: 503,
    reason: 'checkout_busy',
  });
};

/** The account's row for the purpose in `open_checkouts`. */
const accountRows = (deps: Deps, accountId: string, purpose: CheckoutPurpose, requestKey: string): OpenCheckoutRows => {
  const ofOwner = and(eq(openCheckouts.accountId, accountId), eq(openCheckouts.purpose, purpose));
  const ofClaim = (claimToken: string) => and(ofOwner, eq(openCheckouts.claimToken, claimToken));
  return {
    claim: async (claimToken) =>
      (
        await deps.db
          .insert(openCheckouts)
          .values({ accountId, purpose, requestKey, claimToken })
          .onConflictDoNothing()
          .returning({ claimToken: openCheckouts.claimToken })
      ).length > 0,
    attach: async (claimToken, session) => {
      await deps.db.update(openCheckouts).set({ sessionId: session.id, url: session.url }).where(ofClaim(claimToken));
    },
    current: async () => (await deps.db.select().from(openCheckouts).where(ofOwner))[0],
    release: async (claimToken, claimedBefore) => {
      await deps.db
        .delete(openCheckouts)
        .where(and(ofClaim(claimToken), claimedBefore ? lt(openCheckouts.claimedAt, claimedBefore) : undefined));
    },
  };
};

/** The URL of the account's open checkout for this purpose and request, created once. */
export const openCheckoutOnce = (
  deps: Deps,
  input: { accountId: string; purpose: CheckoutPurpose; requestKey: string },
  steps: OpenCheckoutSteps,
): Promise<string> =>
  openOnce(accountRows(deps, input.accountId, input.purpose, input.requestKey), input.requestKey, steps);
