// @vitest-environment jsdom
import type { TInboxTranscript } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Transcript } from './transcript';

const transcript: TInboxTranscript = {
  thread: {
    threadId: 'thr_1',
    contactIdentifier: '+15551240001',
    lastMessage: 'Yes, Friday works',
    lastMessageAt: '2026-01-01T10:00:00.000Z',
    messageCount: 2,
    handledByUserId: null,
    createdAt: '2026-01-01T09:00:00.000Z',
  },
  messages: [
    {
      id: 'mes_1',
      role: 'assistant',
      source: 'campaign',
      content: '20% off whitening. Want a slot on Friday?',
      toolCalls: [],
      createdAt: '2026-01-01T09:00:00.000Z',
    },
    { id: 'mes_2', role: 'user', content: 'Yes, Friday works', toolCalls: [], createdAt: '2026-01-01T10:00:00.000Z' },
  ],
};

describe('a conversation in the inbox', () => {
  it('shows a campaign message as sent by the campaign, before the contact’s reply', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <Transcript connectionId="con_1" transcript={transcript} canReply={false} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const campaign = html.indexOf('>Campaign<');
    expect(campaign).toBeGreaterThan(-1);
    expect(html.indexOf('20% off whitening')).toBeGreaterThan(campaign);
    expect(html.indexOf('Yes, Friday works')).toBeGreaterThan(html.indexOf('20% off whitening'));
    expect(html).not.toContain('>Agent<');
  });
});
