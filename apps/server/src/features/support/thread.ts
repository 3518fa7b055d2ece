/**
 * The thread of a support ticket: the operator's replies and the customer's answers. A message, its
 * ticket's new status and its mail (the outbox row) are written in one transaction, so a message is
 * never stored without its mail nor mailed without being stored. The sender's `clientId` is unique
 * per ticket: the same message posted twice, even at once, is stored and mailed once.
 */
import type { TTicketMessage, TTicketReplyRequest } from '@switchboard/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { createMailer, type OutgoingMail } from '../../platform/mailer';
import { supportTicketMessages, supportTickets } from './schema';

export type TicketRow = typeof supportTickets.$inferSelect;
type MessageRow = typeof supportTicketMessages.$inferSelect;

export const toMessage = (row: MessageRow): TTicketMessage => ({
  id: row.id,
  author: row.author,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
});

export const ticketNotFound = () => new AppError('NOT_FOUND', 'Ticket not found');

/** The threads of the given tickets, oldest message first, by ticket id. */
export const threadsOf = async (db: Db | Tx, ticketIds: string[]): Promise<Map<string, TTicketMessage[]>> => {
  const threads = new Map<string, TTicketMessage[]>(ticketIds.map((id) => [id, []]));
  if (ticketIds.length === 0) return threads;
  const rows = await db
    .select()
    .from(supportTicketMessages)
    .where(inArray(supportTicketMessages.ticketId, ticketIds))
    .orderBy(asc(supportTicketMessages.createdAt), asc(supportTicketMessages.id));
  for (const row of rows) threads.get(row.ticketId)?.push(toMessage(row));
  return threads;
};

export interface PostMessage {
  ticketId: string;
  author: TTicketMessage['author'];
  authorEmail: string;
  request: TTicketReplyRequest;
  /** Only a ticket this says yes to is written to (the customer's own ticket); others are not found. */
  allowed?: (ticket: TicketRow) => boolean;
  /** The ticket's status once the message is stored. */
  status: TicketRow['status'];
  /** The mail that carries the message, or null to mail nobody. */
  mail: (ticket: TicketRow, message: TTicketMessage) => OutgoingMail | null;
}

/** Stores a message on a ticket and mails it; `created` is false when the same clientId was stored before. */
export const postMessage = async (
  deps: Deps,
  input: PostMessage,
): Promise<{ message: TTicketMessage; created: boolean }> =>
  deps.db.transaction(async (tx) => {
    // The ticket's row lock orders concurrent posts: the second sees the first's message.
    const [ticket] = await tx.select().from(supportTickets).where(eq(supportTickets.id, input.ticketId)).for('update');
    if (!ticket || (input.allowed && !input.allowed(ticket))) throw ticketNotFound();
    const [inserted] = await tx
      .insert(supportTicketMessages)
      .values({
        id: newId('supportTicketMessage'),
        ticketId: ticket.id,
        author: input.author,
        authorEmail: input.authorEmail,
        body: input.request.message,
        clientId: input.request.clientId,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      const [stored] = await tx
        .select()
        .from(supportTicketMessages)
        .where(
          and(
            eq(supportTicketMessages.ticketId, ticket.id),
            eq(supportTicketMessages.clientId, input.request.clientId),
          ),
        );
      if (!stored) throw ticketNotFound();
      return { message: toMessage(stored), created: false };
    }
    const message = toMessage(inserted);
    await tx
      .update(supportTickets)
      .set({ status: input.status, updatedAt: inserted.createdAt })
      .where(eq(supportTickets.id, ticket.id));
    const mail = input.mail(ticket, message);
    // The mailer writes the outbox row in this transaction: it commits with the message.
    if (mail) await createMailer(tx, deps.env, deps.log).send(mail);
    return { message, created: true };
  });
