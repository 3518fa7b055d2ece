import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { supportTickets } from './schema';
import { ticketMail } from './service';

let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  t = await startTestApp({ SUPPORT_EMAIL: 'help@operator.test' });
  const stamp = Date.now();
  agency = await seedAgency(t.deps.db, {
    accountName: 'Helpful Agency',
    owner: { email: `helpful-${stamp}@example.test`, name: 'Hana Helpful' },
    subaccounts: ['Harbor Client'],
    plan: 'sb_growth_month_3000',
  });
  other = await seedAgency(t.deps.db, {
    accountName: 'Other Agency',
    owner: { email: `other-${stamp}@example.test`, name: 'Otto Other' },
    subaccounts: ['Other Client'],
  });
  cookie = await t.cookieFor(agency.ownerId);
  otherCookie = await t.cookieFor(other.ownerId);
});
afterAll(async () => {
  await t?.close();
});

const send = (who: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/support/tickets', headers: { cookie: who }, payload });

describe('support tickets', () => {
  it('stores a ticket with the account context and emails the operator', async () => {
    const response = await send(cookie, {
      subject: 'Widget <b>not</b> showing',
      message: 'The widget does not appear on the client site after deploying it. <script>x</script>',
      category: 'problem',
      page: '/sub_abc/website-widget',
    });
    expect(response.statusCode).toBe(201);
    const ticket = response.json();
    expect(ticket).toMatchObject({ status: 'open', priority: 'normal', subaccountName: 'Harbor Client' });
    const [row] = await t.deps.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    expect(row?.context).toMatchObject({
      accountName: 'Helpful Agency',
      role: 'admin',
      page: '/sub_abc/website-widget',
    });
    const [mail] = await t.deps.db.select().from(outbox).where(eq(outbox.to, 'help@operator.test'));
    expect(mail?.subject).toBe(`Support ticket ${ticket.id}: Widget <b>not</b> showing`);
    expect(mail?.html).toContain('&#60;script&#62;x&#60;/script&#62;');
    expect(mail?.html).not.toContain('<script>');
    expect(mail?.text).toContain('Agency: Helpful Agency');
  });

  it('lists only the caller’s tickets, with status', async () => {
    const mine = (await t.app.inject({ method: 'GET', url: '/api/support/tickets', headers: { cookie } })).json();
    expect(mine.tickets).toHaveLength(1);
    expect(mine).toMatchObject({ prioritySupport: false, emailed: true });
    const theirs = (
      await t.app.inject({ method: 'GET', url: '/api/support/tickets', headers: { cookie: otherCookie } })
    ).json();
    expect(theirs.tickets).toHaveLength(0);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const before = (await t.deps.db.select().from(supportTickets)).length;
    const short = await send(cookie, { subject: 'Hi', message: 'Help', category: 'question' });
    expect(short.statusCode).toBe(422);
    const badPage = await send(cookie, {
      subject: 'Valid subject',
      message: 'A long enough message for the operator.',
      category: 'question',
      page: 'https://evil.example',
    });
    expect(badPage.statusCode).toBe(422);
    expect(
      (await send(cookie, { subject: 'Valid subject', message: 'Long enough text', category: 'spam' })).statusCode,
    ).toBe(422);
    expect((await t.app.inject({ method: 'POST', url: '/api/support/tickets', payload: {} })).statusCode).toBe(401);
    expect((await t.deps.db.select().from(supportTickets)).length).toBe(before);
  });

  it('marks tickets of plans with priority support', () => {
    const mail = ticketMail(
      'help@operator.test',
      {
        id: 'tkt_1',
        subject: 'Urgent',
        message: 'Everything is down',
        category: 'problem',
        status: 'open',
        priority: 'priority',
        subaccountName: 'X',
        createdAt: '',
        updatedAt: '',
      },
      { email: 'a@b.test', name: 'A' },
      {
        accountName: 'Big',
        subaccountId: 'sub_1',
        subaccountName: 'X',
        role: 'admin',
        plan: 'Enterprise',
        page: null,
        userAgent: null,
      },
    );
    expect(mail.subject).toBe('[Priority] Support ticket tkt_1: Urgent');
  });
});
