/**
 * The one rule every public channel (website widget and block, demos, SMS, WhatsApp, Instagram)
 * runs before its agent answers a visitor: `answerVisitor`. It refuses a connection the agency
 * paused in Launch (CONNECTION_INACTIVE, action Activate Connection), a sub-account the plan has
 * locked (and one that has used its monthly credit allowance), and turns every billing refusal
 * (locked, allowance, out of credits) into the neutral message visitors see, so a client's
 * customers never read billing words. The agency sees the real reason in the workspace.
 */
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { publishSubaccountLockChange } from '../../platform/guard';
import { TtlCache } from '../../platform/ttl-cache';
import { isConnectionPaused, PAUSED_MESSAGE } from '../launch/pauses';
import { subaccounts } from '../tenancy/schema';

/** What visitors read whenever billing stops an assistant. */
export const VISITOR_UNAVAILABLE = 'This assistant is unavailable right now';

export interface ChannelTarget {
  accountId: string;
  subaccountId: string;
  /** The channel connection the visitor reached (none for demos): a paused one answers nobody. */
  connectionId?: string;
}

/** Sub-account lock state, kept 2 s per process (the public chat is hot); dropped on change. */
const lockStates = new TtlCache<boolean>(2000);
export const SUBACCOUNT_LOCKS_CHANNEL = 'billing:subaccount-locks';
let subscribedTo: Deps | null = null;

const isLocked = async (deps: Deps, subaccountId: string): Promise<boolean> => {
  if (subscribedTo !== deps) {
    subscribedTo = deps;
    lockStates.clear();
    deps.bus.subscribe(SUBACCOUNT_LOCKS_CHANNEL, (payload) => {
      const id = (payload as { subaccountId?: string }).subaccountId;
      if (id) lockStates.delete(id);
      else lockStates.clear();
    });
  }
  return lockStates.getOrLoad(subaccountId, async () => {
    const [row] = await deps.db
      .select({ locked: subaccounts.locked })
      .from(subaccounts)
      .where(eq(subaccounts.id, subaccountId))
      .limit(1);
    return row?.locked ?? false;
  });
};

/** Tells every process that a sub-account's lock changed (public channels and the guard). */
export const publishLockChange = (deps: Deps, subaccountId: string) => {
  lockStates.delete(subaccountId);
  deps.bus.publish(SUBACCOUNT_LOCKS_CHANNEL, { subaccountId });
  publishSubaccountLockChange(deps, subaccountId);
};

/** The billing refusals a visitor must never read as such. */
const BILLING_REFUSALS = new Set([
  'BILLING_INSUFFICIENT_CREDITS',
  'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
  'BILLING_SUBSCRIPTION_NOT_FOUND',
  'BILLING_PAYMENT_FAILED',
]);

/**
 * A billing refusal as a visitor sees it: the neutral message under the neutral code FORBIDDEN,
 * with the original status and a machine reason (subaccount_locked, allowance_reached,
 * insufficient_credits) for the channel's own logic.
 */
export const forVisitors = (error: unknown): unknown => {
  if (!(error instanceof AppError) || !BILLING_REFUSALS.has(error.code)) return error;
  const reason =
    error.reason ?? (error.code === 'BILLING_INSUFFICIENT_CREDITS' ? 'insufficient_credits' : 'plan_required');
  return new AppError('FORBIDDEN', VISITOR_UNAVAILABLE, { status: error.status, reason });
};

/**
 * Throws 409 CONNECTION_INACTIVE (reason connection_paused) when the connection is paused, and 403
 * (reason subaccount_locked) when the plan has locked the sub-account.
 */
export const admitVisitorChannel = async (deps: Deps, target: ChannelTarget): Promise<void> => {
  if (target.connectionId && (await isConnectionPaused(deps, target.connectionId))) {
    throw new AppError('CONNECTION_INACTIVE', PAUSED_MESSAGE, { reason: 'connection_paused' });
  }
  if (await isLocked(deps, target.subaccountId)) {
    throw new AppError('FORBIDDEN', VISITOR_UNAVAILABLE, {
      status: 403,
      reason: 'subaccount_locked',
    });
  }
};

/**
 * Runs a public channel's reply: admits the sub-account first, then `run` (which reaches the
 * model through the gateway, where credits and the client's allowance are reserved); every billing
 * refusal comes out in visitors' words. The SMS, WhatsApp and Instagram channels call this too.
 */
export const answerVisitor = async <T>(deps: Deps, target: ChannelTarget, run: () => Promise<T>): Promise<T> => {
  try {
    await admitVisitorChannel(deps, target);
    return await run();
  } catch (error) {
    const mapped = forVisitors(error);
    if (mapped !== error || (error instanceof AppError && error.message === VISITOR_UNAVAILABLE)) {
      deps.log.info(
        { accountId: target.accountId, subaccountId: target.subaccountId, reason: (mapped as AppError).reason },
        'a public channel refused a visitor for a billing reason',
      );
    }
    throw mapped;
  }
};
