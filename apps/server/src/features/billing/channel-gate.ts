/**
 * Billing's part of the rule every public channel (website widget and block, demos, SMS, WhatsApp,
 * Instagram) runs before its agent answers a visitor (`answerVisitor`, connections/visitor-gate.ts):
 * whether the plan has locked the sub-account, and every billing refusal (locked, allowance, out of
 * credits) in the neutral words visitors see, so a client's customers never read billing words.
 * The agency sees the real reason in the workspace.
 */
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { publishSubaccountLockChange } from '../../platform/guard';
import { TtlCache } from '../../platform/ttl-cache';
import { subaccounts } from '../tenancy/schema';

/** What visitors read whenever billing stops an assistant. */
export const VISITOR_UNAVAILABLE = 'This assistant is unavailable right now';

/** Sub-account lock state, kept 2 s per process (the public chat is hot); dropped on change. */
const lockStates = new TtlCache<boolean>(2000);
export const SUBACCOUNT_LOCKS_CHANNEL = 'billing:subaccount-locks';
let subscribedTo: Deps | null = null;

/** Whether the plan has locked the sub-account (read on every visitor message). */
export const isSubaccountLocked = async (deps: Deps, subaccountId: string): Promise<boolean> => {
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
