// @vitest-environment jsdom
import type { TChannelConnection, TChannelMessage, TChannelMessageList } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxPhone } from './sandbox-phone';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const connection = {
  connectionId: 'con_sms',
  connectionName: 'Clinic SMS Agent',
  type: 'sms',
  transport: 'sandbox',
  sender: { phoneNumber: '+15557654321', messagingServiceSid: null },
  instagram: null,
} as unknown as TChannelConnection;

const message = (i: number): TChannelMessage => ({
  messageId: `cmsg_${i}`,
  direction: 'inbound',
  contactPhone: '+15555550123',
  body: `message ${i}`,
  mediaUrls: [],
  status: 'received',
  errorCode: null,
  campaignId: null,
  transport: 'sandbox',
  createdAt: new Date(Date.UTC(2026, 0, 1, 10, 0, i)).toISOString(),
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the sandbox phone', () => {
  it('pages back through older messages before the oldest one shown', async () => {
    const client = new QueryClient();
    client.setQueryData<TChannelMessageList>(['channel', 'con_sms', 'messages'], {
      messages: [message(3), message(4)],
      hasMore: true,
    });
    const older: TChannelMessageList = { messages: [message(1), message(2)], hasMore: false };
    const latest: TChannelMessageList = { messages: [message(3), message(4)], hasMore: true };
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (url) => json(String(url).includes('before=') ? older : latest));
    const host = document.createElement('div');
    document.body.append(host);
    act(() =>
      createRoot(host).render(
        <QueryClientProvider client={client}>
          <SandboxPhone connection={connection} canEdit />
        </QueryClientProvider>,
      ),
    );
    const bodies = () =>
      [...host.querySelectorAll('ol[aria-label^="Messages with"] li')]
        .map((li) => li.textContent ?? '')
        .filter((text) => /message \d/.test(text))
        .map((text) => /message \d/.exec(text)?.[0]);
    expect(bodies()).toEqual(['message 3', 'message 4']);
    const button = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Show earlier messages');
    expect(button).toBeDefined();
    await act(async () => {
      button?.click();
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const calls = fetch.mock.calls.map(([url]) => String(url));
    expect(calls).toContain('/api/channels/con_sms/messages?limit=500&before=cmsg_3');
    expect(bodies()).toEqual(['message 1', 'message 2', 'message 3', 'message 4']);
    expect([...host.querySelectorAll('button')].some((b) => b.textContent === 'Show earlier messages')).toBe(false);
  });
});
