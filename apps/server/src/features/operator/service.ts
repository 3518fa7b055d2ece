/**
 * The operator console's data: support tickets (open first, then the agencies whose plan has
 * priority support, then the oldest), their threads and replies, and the accounts with their plans.
 */
import {
  ALL_TIERS,
  FREE_TIER,
  type TOperatorAccount,
  type TOperatorAccountList,
  type TOperatorAccountQuery,
  type TOperatorTicket,
  type TOperatorTicketDetail,
  type TOperatorTicketList,
  type TOperatorTicketQuery,
  type TTicketMessage,
  type TTicketReplyRequest,
  type TUpdateTicketRequest,
} from '@switchboard/core';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { escapeHtml, type OutgoingMail } from '../../platform/mailer';
import { ACTIVE_STATUSES, type BillingRow, currentPlan } from '../billing/account';
import { billingAccounts, creditEntries } from '../billing/schema';
import { supportTicketMessages, supportTickets } from '../support/schema';
import { toTicket } from '../support/service';
import { postMessage, type TicketRow, threadsOf, ticketNotFound } from '../support/thread';
import { accounts, subaccounts, users } from '../tenancy/schema';

/** Catalog prices whose plan includes priority support. */
const PRIORITY_PRICE_IDS = ALL_TIERS.filter((tier) => tier.capabilities.features.priority_support).map(
  (tier) => tier.price_id,
);

/** Whether the account's plan today has priority support (false without a billing row). */
const planHasPriority = sql<boolean>`coalesce(${and(
  inArray(billingAccounts.priceId, PRIORITY_PRICE_IDS),
  inArray(billingAccounts.status, [...ACTIVE_STATUSES]),
)}, false)`;

/** A ticket is priority when its agency's plan has priority support now, or had it when it was sent. */
const ticketIsPriority = sql<boolean>`(${supportTickets.priority} = 'priority' or ${planHasPriority})`;

const statusRank = sql`case ${supportTickets.status} when 'open' then 0 when 'answered' then 1 else 2 end`;

/** The account's plan today; the free plan while it has no billing row. */
const planOf = (deps: Deps, row: BillingRow | null) => {
  if (!row) return { name: FREE_TIER.display_name, priority: FREE_TIER.capabilities.features.priority_support };
  const plan = currentPlan(deps, row);
  return { name: plan.displayName, priority: plan.capabilities.features.priority_support };
};

const ticketColumns = {
  ticket: supportTickets,
  accountName: accounts.name,
  billing: billingAccounts,
  priority: ticketIsPriority,
  messageCount: sql<number>`(select count(*) from ${supportTicketMessages} where ${supportTicketMessages.ticketId} = ${supportTickets.id})`,
  lastMessageAt: sql<
    string | null
  >`(select max(${supportTicketMessages.createdAt}) from ${supportTicketMessages} where ${supportTicketMessages.ticketId} = ${supportTickets.id})`,
};

type TicketSelection = {
  ticket: TicketRow;
  accountName: string;
  billing: BillingRow | null;
  priority: boolean;
  messageCount: number;
  lastMessageAt: string | Date | null;
};

const toOperatorTicket = (deps: Deps, row: TicketSelection): TOperatorTicket => ({
  ...toTicket(row.ticket),
  accountId: row.ticket.accountId,
  accountName: row.accountName,
  email: row.ticket.email,
  plan: planOf(deps, row.billing).name,
  prioritySupport: Boolean(row.priority),
  messageCount: Number(row.messageCount),
  lastMessageAt: row.lastMessageAt ? new Date(row.lastMessageAt).toISOString() : row.ticket.createdAt.toISOString(),
});

const ticketsQuery = (deps: Deps, where: SQL | undefined) =>
  deps.db
    .select(ticketColumns)
    .from(supportTickets)
    .innerJoin(accounts, eq(accounts.id, supportTickets.accountId))
    .leftJoin(billingAccounts, eq(billingAccounts.accountId, supportTickets.accountId))
    .where(where);

/** Tickets, open first, then priority support, then the oldest; in one status when asked. */
export const listTickets = async (deps: Deps, query: TOperatorTicketQuery): Promise<TOperatorTicketList> => {
  const where = query.status ? eq(supportTickets.status, query.status) : undefined;
  const [rows, totals] = await Promise.all([
    ticketsQuery(deps, where)
      .orderBy(statusRank, desc(ticketIsPriority), asc(supportTickets.createdAt), asc(supportTickets.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ total: count() }).from(supportTickets).where(where),
  ]);
  return { tickets: rows.map((row) => toOperatorTicket(deps, row)), total: totals[0]?.total ?? 0 };
};

/** One ticket with its agency, the context it was sent from and its thread. */
export const getTicket = async (deps: Deps, ticketId: string): Promise<TOperatorTicketDetail> => {
  const [row] = await ticketsQuery(deps, eq(supportTickets.id, ticketId)).limit(1);
  if (!row) throw ticketNotFound();
  const [account, threads] = await Promise.all([
    accountsQuery(deps, eq(accounts.id, row.ticket.accountId)).limit(1),
    threadsOf(deps.db, [ticketId]),
  ]);
  const { context } = row.ticket;
  return {
    ticket: toOperatorTicket(deps, row),
    account: toAccount(deps, account[0] as AccountSelection),
    context: {
      subaccountId: context.subaccountId,
      subaccountName: context.subaccountName,
      role: context.role,
      plan: context.plan,
      page: context.page,
      userAgent: context.userAgent,
    },
    messages: threads.get(ticketId) ?? [],
  };
};

export const replyMail = (deps: Deps, ticket: TicketRow, message: TTicketMessage): OutgoingMail => {
  const link = `${deps.publicUrl}/support`;
  const intro = `Switchboard support answered your ticket “${ticket.subject}” (${ticket.id}):`;
  return {
    to: ticket.email,
    subject: `Re: ${ticket.subject} [${ticket.id}]`,
    link,
    text: `${intro}\n\n${message.body}\n\nRead the conversation and answer on your Support page:\n${link}`,
    html: `<p>${escapeHtml(intro)}</p><blockquote style="white-space:pre-wrap">${escapeHtml(message.body)}</blockquote><p><a href="${escapeHtml(link)}">Read the conversation and answer on your Support page</a></p>`,
  };
};

/** The operator's reply: stored, the ticket answered, and mailed to the customer, once per clientId. */
export const replyToTicket = (deps: Deps, operatorEmail: string, ticketId: string, request: TTicketReplyRequest) =>
  postMessage(deps, {
    ticketId,
    author: 'operator',
    authorEmail: operatorEmail,
    request,
    status: 'answered',
    mail: (ticket, message) => replyMail(deps, ticket, message),
  });

/** Opens a ticket again or closes it. */
export const setStatus = async (
  deps: Deps,
  ticketId: string,
  body: TUpdateTicketRequest,
): Promise<TOperatorTicketDetail> => {
  const updated = await deps.db
    .update(supportTickets)
    .set({ status: body.status, updatedAt: new Date() })
    .where(eq(supportTickets.id, ticketId))
    .returning({ id: supportTickets.id });
  if (!updated[0]) throw ticketNotFound();
  return getTicket(deps, ticketId);
};

const accountColumns = {
  id: accounts.id,
  name: accounts.name,
  createdAt: accounts.createdAt,
  ownerEmail: users.email,
  billing: billingAccounts,
  credits: sql<string>`(select coalesce(sum(${creditEntries.amount}), 0) from ${creditEntries} where ${creditEntries.accountId} = ${accounts.id})`,
  subaccountCount: sql<number>`(select count(*) from ${subaccounts} where ${subaccounts.accountId} = ${accounts.id})`,
};

type AccountSelection = {
  id: string;
  name: string;
  createdAt: Date;
  ownerEmail: string;
  billing: BillingRow | null;
  credits: string;
  subaccountCount: number;
};

const accountsQuery = (deps: Deps, where: SQL | undefined) =>
  deps.db
    .select(accountColumns)
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.ownerUserId))
    .leftJoin(billingAccounts, eq(billingAccounts.accountId, accounts.id))
    .where(where);

const toAccount = (deps: Deps, row: AccountSelection): TOperatorAccount => {
  const plan = planOf(deps, row.billing);
  return {
    id: row.id,
    name: row.name,
    ownerEmail: row.ownerEmail,
    plan: plan.name,
    prioritySupport: plan.priority,
    credits: Math.round(Number(row.credits) * 1e6) / 1e6,
    subaccountCount: Number(row.subaccountCount),
    createdAt: row.createdAt.toISOString(),
  };
};

/** `%`, `_` and `\` are matched as themselves in a search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** Accounts whose name or owner's email contains the query (every account without one), newest first. */
export const listAccounts = async (deps: Deps, query: TOperatorAccountQuery): Promise<TOperatorAccountList> => {
  const where = query.query
    ? or(ilike(accounts.name, likePattern(query.query)), ilike(users.email, likePattern(query.query)))
    : undefined;
  const [rows, totals] = await Promise.all([
    accountsQuery(deps, where)
      .orderBy(desc(accounts.createdAt), asc(accounts.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    deps.db.select({ total: count() }).from(accounts).innerJoin(users, eq(users.id, accounts.ownerUserId)).where(where),
  ]);
  return { accounts: rows.map((row) => toAccount(deps, row)), total: totals[0]?.total ?? 0 };
};
