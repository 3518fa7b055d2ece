import type { TOperatorTicket } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { TicketThread } from '../support/ticket-thread';
import { OperatorGate } from './operator-page';
import { TicketRow } from './tickets-section';

const ticket: TOperatorTicket = {
  id: 'tkt_1',
  subject: 'Widget not showing',
  message: 'It does not appear.',
  category: 'problem',
  status: 'open',
  priority: 'priority',
  subaccountName: 'Harbor',
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  accountId: 'acc_1',
  accountName: 'Helpful Agency',
  email: 'hana@example.test',
  plan: 'Growth',
  prioritySupport: true,
  messageCount: 2,
  lastMessageAt: '2026-01-03T10:00:00.000Z',
};

describe('the operator console', () => {
  it('shows "Page not found" to anyone but an operator', () => {
    const gate = (isOperator: boolean, loading = false) =>
      renderToStaticMarkup(
        <MemoryRouter>
          <OperatorGate loading={loading} isOperator={isOperator}>
            <p>Console</p>
          </OperatorGate>
        </MemoryRouter>,
      );
    expect(gate(false)).toContain('Page not found');
    expect(gate(false)).not.toContain('Console');
    expect(gate(true)).toContain('Console');
    expect(gate(true, true)).not.toContain('Console');
  });

  it('lists a ticket with its status, priority badge, sender and plan', () => {
    const html = renderToStaticMarkup(
      <ul>
        <TicketRow ticket={ticket} selected={false} onOpen={() => undefined} />
      </ul>,
    );
    expect(html).toContain('Open');
    expect(html).toContain('Priority');
    expect(html).toContain('hana@example.test');
    expect(html).toContain('Growth');
    expect(html).toContain('2 in thread');
    const normal = renderToStaticMarkup(
      <ul>
        <TicketRow ticket={{ ...ticket, status: 'closed', prioritySupport: false }} selected onOpen={() => undefined} />
      </ul>,
    );
    expect(normal).toContain('Closed');
    expect(normal).not.toContain('Priority');
  });

  it('names the authors of a thread for the customer and for the operator', () => {
    const messages = [
      { id: 'tkm_1', author: 'operator' as const, body: 'Try again now.', createdAt: '2026-01-02T11:00:00.000Z' },
      { id: 'tkm_2', author: 'customer' as const, body: 'It works.', createdAt: '2026-01-02T12:00:00.000Z' },
    ];
    const first = { body: 'It does not appear.', createdAt: '2026-01-02T10:00:00.000Z' };
    const customer = renderToStaticMarkup(<TicketThread first={first} messages={messages} viewer="customer" />);
    expect(customer).toContain('Switchboard support');
    expect(customer).toContain('You');
    expect(customer.indexOf('It does not appear.')).toBeLessThan(customer.indexOf('Try again now.'));
    const operator = renderToStaticMarkup(
      <TicketThread first={first} messages={messages} viewer="operator" customer="hana@example.test" />,
    );
    expect(operator).toContain('Operator');
    expect(operator).toContain('hana@example.test');
  });
});
