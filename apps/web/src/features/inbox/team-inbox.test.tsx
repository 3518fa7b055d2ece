// @vitest-environment jsdom
import type { TCannedReply, TInboxLabelList, TTeamInboxThreadList } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { filterQuery } from './api';
import { insertCanned, matchCanned, slashQuery } from './canned-insert';
import { filtersFrom, TeamInbox } from './team-inbox-page';

const replies: TCannedReply[] = [
  { cannedReplyId: 'cnr_1', title: 'Opening hours', content: 'We are open 9 to 5.' },
  { cannedReplyId: 'cnr_2', title: 'Prices', content: 'Our prices start at $20; opening offer 10%.' },
];

describe('canned replies in the reply box', () => {
  it('opens on "/" at the start of a word and filters by what follows', () => {
    expect(slashQuery('/', 1)).toEqual({ start: 0, query: '' });
    expect(slashQuery('Hi /open', 8)).toEqual({ start: 3, query: 'open' });
    expect(slashQuery('see https://x.test/a', 20)).toBeNull();
    expect(slashQuery('1/2', 3)).toBeNull();
    expect(matchCanned(replies, 'open').map((reply) => reply.cannedReplyId)).toEqual(['cnr_1', 'cnr_2']);
    expect(matchCanned(replies, 'pri').map((reply) => reply.cannedReplyId)).toEqual(['cnr_2']);
  });

  it('replaces the "/word" with the reply and puts the caret after it', () => {
    expect(insertCanned('Hi /open thanks', 8, 'We are open.')).toEqual({ text: 'Hi We are open. thanks', caret: 15 });
    expect(insertCanned('/', 1, 'Hello')).toEqual({ text: 'Hello', caret: 5 });
  });
});

describe('the team inbox', () => {
  it('reads its filters from the address and sends them combined', () => {
    const filters = filtersFrom(new URLSearchParams('channel=sms&label=lbl_1&assignee=me&thread=thr_1'));
    expect(filters).toEqual({ channel: 'sms', label: 'lbl_1', assignee: 'me' });
    expect(filterQuery(filters, 25)).toBe('limit=25&channel=sms&label=lbl_1&assignee=me');
    expect(filtersFrom(new URLSearchParams('channel=test')).channel).toBeUndefined();
  });

  it('lists threads of every channel with their labels, and labelled filters that fit a phone', () => {
    const client = new QueryClient();
    const filters = filtersFrom(new URLSearchParams('channel=whatsapp'));
    const list: TTeamInboxThreadList = {
      threads: [
        {
          threadId: 'thr_1',
          channel: 'whatsapp',
          connectionId: null,
          connectionName: null,
          contactIdentifier: '+15551230001',
          contactName: 'Pat Lee',
          lastMessage: `Is my order ready?${' really'.repeat(100)}`,
          lastMessageAt: '2026-01-01T10:00:00.000Z',
          messageCount: 3,
          handledByUserId: null,
          assignedUserId: 'usr_1',
          labelIds: ['lbl_1'],
        },
      ],
      page: 1,
      limit: 25,
      hasMore: false,
    };
    const labels: TInboxLabelList = { labels: [{ labelId: 'lbl_1', name: 'Urgent', color: 'red' }] };
    client.setQueryData(['team-inbox', 'sub_1', filters, 25], list);
    client.setQueryData(['inbox-labels', 'sub_1'], labels);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/sub_1/inbox?channel=whatsapp']}>
          <TeamInbox subaccountId="sub_1" canAct />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    for (const text of ['Pat Lee', 'WhatsApp', '· Assigned', '>Urgent<', 'Labels and replies', 'Assigned to'])
      expect(html).toContain(text);
    for (const id of ['filter-channel', 'filter-label', 'filter-assignee']) expect(html).toContain(`for="${id}"`);
    expect(html).toMatch(/<option value="whatsapp" selected="">WhatsApp<\/option>/);
    const layout = html.match(/<div class="([^"]*)" data-testid="team-inbox-layout"/)?.[1] ?? '';
    expect(layout.split(' ')).toContain('grid-cols-[minmax(0,1fr)]');
    expect(html).toContain('This conversation’s channel was deleted');
  });
});
