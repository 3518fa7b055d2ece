/**
 * The operator console: tickets listed open first, then priority support, then oldest; a reply is
 * stored and mailed to the customer once however many times it is posted at once; the customer
 * reads it on their Support page and answers back; every operator route answers 404 to anyone but
 * an operator and 401 signed out; a customer never reads another's ticket.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { supportTicketMessages, supportTickets } from '../support/schema';

const OPERATOR = 'console-operator@example.test';

let t: TestApp;
let operatorCookie: string;
type Customer = { agency: SeededAgency; email: string; cookie: string };
let normal: Customer;
let priority: Customer;
let sent = 0;

const newAgency = async (name: string, plan?: string): Promise<Customer> => {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.test`;
  const agency = await seedAgency(t.deps.db, {
    accountName: name,
    owner: { email, name },
    subaccounts: [`${name} Client`],
    ...(plan ? { plan } : {}),
  });
  return { agency, email, cookie: await t.cookieFor(agency.ownerId) };
};

const call = async (
  cookie: string | null,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
  remoteAddress?: string,
) => {
  const response = await t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  return { status: response.statusCode, body: response.json() };
};

/** Sends a ticket, each from its own address (tickets are limited per address and minute). */
/**
 * No plan on sale includes priority support (Enterprise is sold by talking to sales), so the
 * priority agency's tickets are marked as sent on such a plan.
 */
const sendTicket = async (who: Customer, subject: string) => {
  sent += 1;
  const answer = await call(
    who.cookie,
    'POST',
    '/api/support/tickets',
    { subject, message: 'Please help with this, it has been going on for a while.', category: 'question' },
    `198.51.100.${sent}`,
  );
  expect(answer.status).toBe(201);
  const id = answer.body.id as string;
  if (who === priority) {
    await t.deps.db.update(supportTickets).set({ priority: 'priority' }).where(eq(supportTickets.id, id));
  }
  return id;
};

beforeAll(async () => {
  t = await startTestApp({ OPERATOR_EMAILS: OPERATOR.toUpperCase(), SUPPORT_EMAIL: 'help@console.test' });
  const operator = await seedAgency(t.deps.db, {
    accountName: 'Platform',
    owner: { email: OPERATOR, name: 'Olga Operator' },
    subaccounts: ['Ops'],
  });
  operatorCookie = await t.cookieFor(operator.ownerId);
  normal = await newAgency('Normal Agency');
  priority = await newAgency('Priority Agency', 'sb_growth_month_3000');
});
afterAll(async () => {
  await t?.close();
});

describe('operator console', () => {
  it('says in the session who is an operator', async () => {
    expect((await call(operatorCookie, 'GET', '/api/auth/session')).body.isOperator).toBe(true);
    expect((await call(normal.cookie, 'GET', '/api/auth/session')).body.isOperator).toBe(false);
    expect((await call(null, 'GET', '/api/auth/session')).body.isOperator).toBe(false);
  });

  it('lists open tickets first, then priority support, then the oldest', async () => {
    const oldNormal = await sendTicket(normal, 'Old normal question');
    const closedPriority = await sendTicket(priority, 'Closed priority question');
    const newNormal = await sendTicket(normal, 'New normal question');
    const newPriority = await sendTicket(priority, 'New priority question');
    expect(
      (await call(operatorCookie, 'PATCH', `/api/operator/tickets/${closedPriority}`, { status: 'closed' })).status,
    ).toBe(200);
    const listed = await call(operatorCookie, 'GET', '/api/operator/tickets?limit=100');
    expect(listed.status).toBe(200);
    const ids = (listed.body.tickets as { id: string }[]).map((ticket) => ticket.id);
    const ours = ids.filter((id) => [oldNormal, closedPriority, newNormal, newPriority].includes(id));
    expect(ours).toEqual([newPriority, oldNormal, newNormal, closedPriority]);
    const first = listed.body.tickets.find((ticket: { id: string }) => ticket.id === newPriority);
    expect(first).toMatchObject({ priority: 'priority', prioritySupport: true, accountName: 'Priority Agency' });
    expect(first.plan).toContain('Growth');

    const closed = await call(operatorCookie, 'GET', '/api/operator/tickets?status=closed');
    expect(closed.body.tickets.map((ticket: { id: string }) => ticket.id)).toEqual([closedPriority]);
    const page = await call(operatorCookie, 'GET', '/api/operator/tickets?limit=1&page=2');
    expect(page.body).toMatchObject({ total: 4 });
    expect(page.body.tickets).toHaveLength(1);
    expect((await call(operatorCookie, 'GET', '/api/operator/tickets?status=spam')).status).toBe(422);
  });

  it('stores and mails a reply once when it is posted twice at once, and the customer reads it', async () => {
    const ticketId = await sendTicket(normal, 'Reply twice question');
    const reply = { message: 'We fixed it on our side, <b>try again</b>.', clientId: 'reply-0001-abcdef' };
    const url = `/api/operator/tickets/${ticketId}/replies`;
    const answers = await Promise.all([
      call(operatorCookie, 'POST', url, reply),
      call(operatorCookie, 'POST', url, reply),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
    expect(answers[0]?.body.id).toBe(answers[1]?.body.id);
    const stored = await t.deps.db
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, ticketId));
    expect(stored).toHaveLength(1);
    const mails = await t.deps.db.select().from(outbox).where(eq(outbox.to, normal.email));
    const replyMails = mails.filter((mail) => mail.subject.includes(ticketId));
    expect(replyMails).toHaveLength(1);
    expect(replyMails[0]?.text).toContain('We fixed it on our side');
    expect(replyMails[0]?.html).toContain('&#60;b&#62;try again');

    const detail = await call(operatorCookie, 'GET', `/api/operator/tickets/${ticketId}`);
    expect(detail.body.ticket.status).toBe('answered');
    expect(detail.body.account).toMatchObject({ name: 'Normal Agency', plan: 'Free', subaccountCount: 1 });
    expect(detail.body.messages).toHaveLength(1);

    const mine = await call(normal.cookie, 'GET', '/api/support/tickets');
    const listed = mine.body.tickets.find((ticket: { id: string }) => ticket.id === ticketId);
    expect(listed.status).toBe('answered');
    expect(listed.messages).toEqual([expect.objectContaining({ author: 'operator', body: reply.message })]);
  });

  it('lets the customer answer back: the ticket is open again and the support address is mailed', async () => {
    const ticketId = await sendTicket(normal, 'Answer back question');
    await call(operatorCookie, 'POST', `/api/operator/tickets/${ticketId}/replies`, {
      message: 'Which browser do you use?',
      clientId: 'reply-0002-abcdef',
    });
    const answer = { message: 'Firefox, on a laptop.', clientId: 'answer-0001-abcdef' };
    const answered = await call(normal.cookie, 'POST', `/api/support/tickets/${ticketId}/replies`, answer);
    expect(answered.status).toBe(201);
    expect((await call(normal.cookie, 'POST', `/api/support/tickets/${ticketId}/replies`, answer)).status).toBe(200);
    const read = await call(normal.cookie, 'GET', `/api/support/tickets/${ticketId}`);
    expect(read.body.status).toBe('open');
    expect(read.body.messages.map((message: { author: string }) => message.author)).toEqual(['operator', 'customer']);
    const toSupport = await t.deps.db.select().from(outbox).where(eq(outbox.to, 'help@console.test'));
    expect(toSupport.filter((mail) => mail.subject.startsWith(`Re: Support ticket ${ticketId}`))).toHaveLength(1);
    const operatorView = await call(operatorCookie, 'GET', `/api/operator/tickets/${ticketId}`);
    expect(operatorView.body.ticket).toMatchObject({ status: 'open', messageCount: 2 });
  });

  it('never shows or answers a ticket to another customer', async () => {
    const ticketId = await sendTicket(priority, 'Private priority question');
    const read = await call(normal.cookie, 'GET', `/api/support/tickets/${ticketId}`);
    expect(read.status).toBe(404);
    const answer = await call(normal.cookie, 'POST', `/api/support/tickets/${ticketId}/replies`, {
      message: 'Not mine to answer',
      clientId: 'intruder-0001',
    });
    expect(answer.status).toBe(404);
    const theirs = await call(priority.cookie, 'GET', `/api/support/tickets/${ticketId}`);
    expect(theirs.status).toBe(200);
    expect((await call(null, 'GET', `/api/support/tickets/${ticketId}`)).status).toBe(401);
    const stored = await t.deps.db
      .select()
      .from(supportTicketMessages)
      .where(eq(supportTicketMessages.ticketId, ticketId));
    expect(stored).toHaveLength(0);
  });

  it('refuses a bad reply or status with 422 and an unknown ticket with 404, writing nothing', async () => {
    const ticketId = await sendTicket(normal, 'Bad input question');
    const url = `/api/operator/tickets/${ticketId}`;
    expect((await call(operatorCookie, 'POST', `${url}/replies`, { message: '  ', clientId: 'x-000001' })).status).toBe(
      422,
    );
    expect((await call(operatorCookie, 'POST', `${url}/replies`, { message: 'Hello' })).status).toBe(422);
    expect((await call(operatorCookie, 'PATCH', url, { status: 'answered' })).status).toBe(422);
    expect(
      (
        await call(operatorCookie, 'POST', '/api/operator/tickets/tkt_missing/replies', {
          message: 'Hello',
          clientId: 'missing-0001',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(operatorCookie, 'PATCH', '/api/operator/tickets/tkt_missing', { status: 'closed' })).status,
    ).toBe(404);
    const [row] = await t.deps.db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
    expect(row?.status).toBe('open');
  });

  it('searches accounts by name or owner email, with plan, credits and sub-accounts', async () => {
    const byName = await call(operatorCookie, 'GET', '/api/operator/accounts?query=priority%20agen');
    expect(byName.status).toBe(200);
    expect(byName.body.accounts).toEqual([
      expect.objectContaining({
        id: priority.agency.accountId,
        plan: expect.stringContaining('Growth'),
        prioritySupport: false,
        subaccountCount: 1,
        ownerEmail: priority.email,
      }),
    ]);
    expect(typeof byName.body.accounts[0].credits).toBe('number');
    const byEmail = await call(
      operatorCookie,
      'GET',
      `/api/operator/accounts?query=${encodeURIComponent(normal.email)}`,
    );
    expect(byEmail.body.accounts.map((account: { id: string }) => account.id)).toEqual([normal.agency.accountId]);
    // A wildcard is searched as itself.
    expect((await call(operatorCookie, 'GET', '/api/operator/accounts?query=%25')).body.accounts).toEqual([]);
  });

  it('answers every operator route 404 to a customer and 401 signed out', async () => {
    const routes = t.app.guardedRoutes.filter((route) => route.url.startsWith('/api/operator/'));
    expect(routes.length).toBeGreaterThanOrEqual(9);
    for (const route of routes) {
      expect(route.access.kind, route.url).toBe('operator');
      const url = route.url.replace(/:([A-Za-z]+)/g, 'tkt_someone');
      const payload = route.method === 'GET' ? undefined : { message: 'Hi there', clientId: 'probe-000001' };
      const method = route.method as 'GET';
      const customer = await t.app.inject({ method, url, headers: { cookie: normal.cookie }, payload });
      expect(customer.statusCode, `${route.method} ${route.url}`).toBe(404);
      const signedOut = await t.app.inject({ method, url, payload });
      expect(signedOut.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    const probes = await t.deps.db
      .select()
      .from(supportTicketMessages)
      .where(inArray(supportTicketMessages.clientId, ['probe-000001']));
    expect(probes).toHaveLength(0);
  });
});
