import type {
  TCreateTicketRequest,
  TTicket,
  TTicketListResponse,
  TTicketMessage,
  TTicketReplyRequest,
  TTicketWithThread,
} from '@switchboard/core';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import type { Mailer, OutgoingMail } from '../../platform/mailer';
import type { Caller } from '../auth/session';
import { currentPlan } from '../billing/account';
import { lockAccount } from '../billing/ledger-repo';
import { accounts, subaccounts } from '../tenancy/schema';
import { supportTickets, type TicketContext } from './schema';
import { postMessage, type TicketRow, threadsOf, ticketNotFound } from './thread';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const toTicket = (row: typeof supportTickets.$inferSelect): TTicket => ({
  id: row.id,
  subject: row.subject,
  message: row.message,
  category: row.category,
  status: row.status,
  priority: row.priority,
  subaccountName: row.context.subaccountName,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The plan's name and whether it includes priority support. */
const planOf = async (deps: Deps, accountId: string) => {
  const plan = await deps.db.transaction(async (tx) =>
    currentPlan(deps, await lockAccount(tx, accountId, deps.env.FREE_PLAN_CREDITS)),
  );
  return { name: plan.displayName, priority: plan.capabilities.features.priority_support };
};

export const ticketMail = (
  to: string,
  ticket: TTicket,
  from: { email: string; name: string },
  context: TicketContext,
): OutgoingMail => {
  const tag = ticket.priority === 'priority' ? '[Priority] ' : '';
  const lines = [
    `From: ${from.name || from.email} <${from.email}>`,
    `Agency: ${context.accountName} (plan: ${context.plan})`,
    `Sub-account: ${context.subaccountName} (${context.subaccountId}), role ${context.role}`,
    `Category: ${ticket.category}`,
    `Page: ${context.page ?? 'not given'}`,
    `Ticket: ${ticket.id}`,
  ];
  return {
    to,
    subject: `${tag}Support ticket ${ticket.id}: ${ticket.subject}`,
    text: `${lines.join('\n')}\n\n${ticket.message}\n\nReply to ${from.email}.`,
    html: `<p>${lines.map(escapeHtml).join('<br>')}</p><blockquote style="white-space:pre-wrap">${escapeHtml(ticket.message)}</blockquote><p>Reply to <a href="mailto:${escapeHtml(from.email)}">${escapeHtml(from.email)}</a>.</p>`,
  };
};

/** Stores a ticket with the caller's account context and emails the operator's support address. */
export const createTicket = async (
  deps: Deps,
  mailer: Mailer,
  caller: Caller,
  tenant: Tenant,
  body: TCreateTicketRequest,
  userAgent: string | undefined,
): Promise<TTicket> => {
  const [plan, names] = await Promise.all([
    planOf(deps, tenant.accountId),
    deps.db
      .select({ accountName: accounts.name, subaccountName: subaccounts.name })
      .from(subaccounts)
      .innerJoin(accounts, eq(accounts.id, subaccounts.accountId))
      .where(eq(subaccounts.id, tenant.subaccountId))
      .limit(1),
  ]);
  const context: TicketContext = {
    accountName: names[0]?.accountName ?? '',
    subaccountId: tenant.subaccountId,
    subaccountName: names[0]?.subaccountName ?? '',
    role: tenant.role,
    plan: plan.name,
    page: body.page ?? null,
    userAgent: userAgent?.slice(0, 300) ?? null,
  };
  const [row] = await deps.db
    .insert(supportTickets)
    .values({
      id: newId('supportTicket'),
      userId: caller.userId,
      accountId: tenant.accountId,
      email: caller.email,
      subject: body.subject,
      message: body.message,
      category: body.category,
      priority: plan.priority ? 'priority' : 'normal',
      context,
    })
    .returning();
  const ticket = toTicket(row as typeof supportTickets.$inferSelect);
  if (deps.env.SUPPORT_EMAIL) {
    await mailer.send(ticketMail(deps.env.SUPPORT_EMAIL, ticket, { email: caller.email, name: caller.name }, context));
  } else {
    deps.log.warn({ ticketId: ticket.id }, 'Support ticket stored; SUPPORT_EMAIL is not set, so it was not emailed');
  }
  return ticket;
};

export const listTickets = async (
  deps: Deps,
  caller: Caller,
  tenant: Tenant,
  page: number,
  limit: number,
): Promise<TTicketListResponse> => {
  const [rows, totals, plan] = await Promise.all([
    deps.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.userId, caller.userId))
      .orderBy(desc(supportTickets.createdAt), desc(supportTickets.id))
      .limit(limit)
      .offset((page - 1) * limit),
    deps.db.select({ total: count() }).from(supportTickets).where(eq(supportTickets.userId, caller.userId)),
    planOf(deps, tenant.accountId),
  ]);
  const threads = await threadsOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return {
    tickets: rows.map((row) => ({ ...toTicket(row), messages: threads.get(row.id) ?? [] })),
    total: totals[0]?.total ?? 0,
    prioritySupport: plan.priority,
    emailed: Boolean(deps.env.SUPPORT_EMAIL),
  };
};

/** One of the caller's own tickets with its thread; another user's ticket is not found. */
export const getTicket = async (deps: Deps, caller: Caller, ticketId: string): Promise<TTicketWithThread> => {
  const [row] = await deps.db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, caller.userId)))
    .limit(1);
  if (!row) throw ticketNotFound();
  const threads = await threadsOf(deps.db, [row.id]);
  return { ...toTicket(row), messages: threads.get(row.id) ?? [] };
};

/** Whether the ticket is the caller's (the guard's ownership check of the ticket routes). */
export const ownsTicket = async (deps: Deps, caller: Caller, ticketId: string): Promise<boolean> => {
  const [row] = await deps.db
    .select({ id: supportTickets.id })
    .from(supportTickets)
    .where(and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, caller.userId)))
    .limit(1);
  return Boolean(row);
};

export const answerMail = (to: string, ticket: TicketRow, message: TTicketMessage, from: string): OutgoingMail => {
  const tag = ticket.priority === 'priority' ? '[Priority] ' : '';
  const head = `${from} answered ticket ${ticket.id} (${ticket.context.accountName}).`;
  return {
    to,
    subject: `${tag}Re: Support ticket ${ticket.id}: ${ticket.subject}`,
    text: `${head}\n\n${message.body}\n\nAnswer it in the operator console, /operator.`,
    html: `<p>${escapeHtml(head)}</p><blockquote style="white-space:pre-wrap">${escapeHtml(message.body)}</blockquote><p>Answer it in the operator console, /operator.</p>`,
  };
};

/**
 * The customer answers on their own ticket: it is open again, and the answer is mailed to
 * SUPPORT_EMAIL when set. The same clientId twice stores one answer.
 */
export const answerTicket = async (deps: Deps, caller: Caller, ticketId: string, request: TTicketReplyRequest) =>
  postMessage(deps, {
    ticketId,
    author: 'customer',
    authorEmail: caller.email,
    request,
    allowed: (ticket) => ticket.userId === caller.userId,
    status: 'open',
    mail: (ticket, message) =>
      deps.env.SUPPORT_EMAIL ? answerMail(deps.env.SUPPORT_EMAIL, ticket, message, caller.email) : null,
  });
