// @vitest-environment jsdom
import type { TInboxThreadList } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Inbox } from './inbox-page';

const LONG = `20% off whitening this month${' and more'.repeat(200)}`;

describe('the conversations of an SMS, WhatsApp or Instagram agent on a phone', () => {
  it('keep every column within the viewport: one column that may shrink, long previews cut', () => {
    const client = new QueryClient();
    const list: TInboxThreadList = {
      threads: [
        {
          threadId: 'thr_1',
          contactIdentifier: '+15551240001',
          lastMessage: LONG,
          lastMessageAt: '2026-01-01T10:00:00.000Z',
          messageCount: 1,
          handledByUserId: null,
          createdAt: '2026-01-01T10:00:00.000Z',
        },
      ],
      page: 1,
      limit: 25,
      hasMore: false,
    };
    client.setQueryData(['inbox', 'con_1', 25], list);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <Inbox connectionId="con_1" canReply />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const layout = html.match(/<div class="([^"]*)" data-testid="inbox-layout"/)?.[1] ?? '';
    // Without a base column the single column is sized by its widest line (a preview kept on one line).
    expect(layout.split(' ')).toContain('grid-cols-[minmax(0,1fr)]');
    expect(html).toMatch(/class="block truncate[^"]*">20% off whitening/);
  });
});
