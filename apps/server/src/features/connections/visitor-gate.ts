/**
 * The one rule every public channel (website widget and block, demos, SMS, WhatsApp, Instagram)
 * runs before its agent answers a visitor: `answerVisitor`. It refuses a connection the agency
 * paused in Launch (CONNECTION_INACTIVE, action Activate Connection), a sub-account the plan has
 * locked (and one that has used its monthly credit allowance), and turns every billing refusal
 * (locked, allowance, out of credits) into the neutral message visitors see
 * (billing/channel-gate.ts), so a client's customers never read billing words.
 */
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { forVisitors, isSubaccountLocked, VISITOR_UNAVAILABLE } from '../billing/channel-gate';
import { isConnectionPaused, PAUSED_MESSAGE } from './pauses';

/** What visitors read whenever billing stops an assistant (the channels answer it too). */
export { VISITOR_UNAVAILABLE };

export interface ChannelTarget {
  accountId: string;
  subaccountId: string;
  /** The channel connection the visitor reached (none for demos): a paused one answers nobody. */
  connectionId?: string;
}

/**
 * Throws 409 CONNECTION_INACTIVE (reason connection_paused) when the connection is paused, and 403
 * (reason subaccount_locked) when the plan has locked the sub-account.
 */
export const admitVisitorChannel = async (deps: Deps, target: ChannelTarget): Promise<void> => {
  if (target.connectionId && (await isConnectionPaused(deps, target.connectionId))) {
    throw new AppError('CONNECTION_INACTIVE', PAUSED_MESSAGE, { reason: 'connection_paused' });
  }
  if (await isSubaccountLocked(deps, target.subaccountId)) {
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
