/**
 * The operator console (/operator, OPERATOR_EMAILS only): support tickets answered in the product,
 * affiliate payouts and the accounts with their plans.
 */
import { z } from 'zod';
import { ZPageQuery } from '../http/pagination';
import { TICKET_STATUSES, ZTicket, ZTicketMessage } from '../support/schemas';

export const ZOperatorTicketQuery = ZPageQuery.extend({
  /** Only tickets in this status; every status when absent. */
  status: z.enum(TICKET_STATUSES).optional(),
});
export type TOperatorTicketQuery = z.infer<typeof ZOperatorTicketQuery>;

/** A ticket as the operator lists it: who sent it, from which agency, and whether its plan has priority support. */
export const ZOperatorTicket = ZTicket.extend({
  accountId: z.string(),
  accountName: z.string(),
  email: z.string(),
  /** The agency's plan today. */
  plan: z.string(),
  /** Whether the agency's plan today includes priority support (or the ticket was sent on one that did). */
  prioritySupport: z.boolean(),
  /** Messages in the thread after the first. */
  messageCount: z.number().int(),
  /** When the last message of the thread was written (the ticket's own time when none). */
  lastMessageAt: z.string(),
});
export type TOperatorTicket = z.infer<typeof ZOperatorTicket>;

export const ZOperatorTicketList = z.object({ tickets: z.array(ZOperatorTicket), total: z.number().int() });
export type TOperatorTicketList = z.infer<typeof ZOperatorTicketList>;

/** An agency as the operator sees it. */
export const ZOperatorAccount = z.object({
  id: z.string(),
  name: z.string(),
  ownerEmail: z.string(),
  plan: z.string(),
  prioritySupport: z.boolean(),
  /** The credits balance (the sum of the ledger). */
  credits: z.number(),
  subaccountCount: z.number().int(),
  createdAt: z.string(),
});
export type TOperatorAccount = z.infer<typeof ZOperatorAccount>;

export const ZOperatorTicketDetail = z.object({
  ticket: ZOperatorTicket,
  account: ZOperatorAccount,
  /** Where the ticket was sent from. */
  context: z.object({
    subaccountId: z.string(),
    subaccountName: z.string(),
    role: z.string(),
    /** The plan when the ticket was sent. */
    plan: z.string(),
    page: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  messages: z.array(ZTicketMessage),
});
export type TOperatorTicketDetail = z.infer<typeof ZOperatorTicketDetail>;

/** The operator opens a ticket again or closes it (`answered` is set by a reply). */
export const ZUpdateTicketRequest = z.object({ status: z.enum(['open', 'closed']) });
export type TUpdateTicketRequest = z.infer<typeof ZUpdateTicketRequest>;

export const ZOperatorAccountQuery = ZPageQuery.extend({
  /** Part of the agency's name or of its owner's email; every account when absent. */
  query: z.string().trim().max(200).optional(),
});
export type TOperatorAccountQuery = z.infer<typeof ZOperatorAccountQuery>;

export const ZOperatorAccountList = z.object({ accounts: z.array(ZOperatorAccount), total: z.number().int() });
export type TOperatorAccountList = z.infer<typeof ZOperatorAccountList>;
