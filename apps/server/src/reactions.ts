import { commissionOnPaidInvoice, commissionOnReversedInvoice } from './features/affiliate/service';
import { subaccountWithinPlan } from './features/billing/limits';
import { mailLowBalance } from './features/billing/low-balance';
import { mailReceipt } from './features/billing/receipt-mail';
import { stopDomainWithoutBranding } from './features/domains/recheck';
import { dropEmbeddersOnKeyChange } from './features/knowledge/embeddings';
import { dropKeysOnChange } from './features/llm/models';
import { announceFinishedRun, announceLowCredits } from './features/webhooks/account-events';
import { announceIdentifiedVisitor, announceStoredMessage } from './features/webhooks/conversation-events';
import { type AnyReaction, registerReactions } from './platform/domain-events';

/**
 * How features react to one another's changes (platform/domain-events.ts): every reaction, each
 * defined beside its feature's code with `defineReaction`, in the order an event runs them. A
 * process registers them all here, once, when the app is built.
 */
export const REACTIONS: readonly AnyReaction[] = [
  // message.stored
  announceStoredMessage,
  // lead.identified
  announceIdentifiedVisitor,
  // evaluation.finished
  announceFinishedRun,
  // invoice.paid
  commissionOnPaidInvoice,
  mailReceipt,
  // invoice.reversed
  commissionOnReversedInvoice,
  // credits.low: the webhooks first, then the owner's mail
  announceLowCredits,
  mailLowBalance,
  // subaccount.created
  subaccountWithinPlan,
  // plan.changed
  stopDomainWithoutBranding,
  // provider_key.changed
  dropKeysOnChange,
  dropEmbeddersOnKeyChange,
];

export const registerProductReactions = () => registerReactions(REACTIONS);
