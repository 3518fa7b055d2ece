// @vitest-environment jsdom
import type { TChannelConnection, TInboxThreadList, TInstagramPageChoice } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Inbox } from '../widget/inbox-page';
import { InstagramPagePicker } from './instagram-page-picker';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const connection = {
  connectionId: 'con_ig',
  subaccountId: 'sub_1',
  status: 'pending_connection',
} as TChannelConnection;
const choice: TInstagramPageChoice = {
  pages: [
    { pageId: '1', pageName: 'Clinic Page', instagramAccountId: '178401', username: 'clinic.example' },
    { pageId: '2', pageName: 'Studio Page', instagramAccountId: '178402', username: 'studio.example' },
  ],
  expiresAt: '2026-01-01T10:10:00.000Z',
};

const mount = () => {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  act(() =>
    root.render(
      <QueryClientProvider client={new QueryClient()}>
        <InstagramPagePicker connection={connection} choice={choice} />
      </QueryClientProvider>,
    ),
  );
  return host;
};

const submit = async (host: HTMLElement) => {
  await act(async () => {
    host.querySelector('form')?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('choosing the Instagram account after Connect with Meta', () => {
  it('lists every shared page by its labelled radio, asks for a choice, and sends the picked page', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ ...connection, status: 'live' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const host = mount();
    const radios = [...host.querySelectorAll('input[type="radio"]')] as HTMLInputElement[];
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual([
      '@clinic.examplePage: Clinic Page',
      '@studio.examplePage: Studio Page',
    ]);
    expect(radios.some((radio) => radio.checked)).toBe(false);
    await submit(host);
    expect(host.querySelector('[role="alert"]')?.textContent).toBe('Pick the page this agent answers for.');
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => radios[1]?.click());
    await submit(host);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/channels/con_ig/instagram/page');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ pageId: '2' });
  });

  it('shows Meta refusing the page in the form', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          error: { code: 'META_AUTH_FAILED', message: 'Meta refused to subscribe the page Studio Page.' },
        }),
        { status: 401, headers: { 'content-type': 'application/json' } },
      ),
    );
    const host = mount();
    await act(async () => (host.querySelector('input[value="2"]') as HTMLInputElement).click());
    await submit(host);
    expect(host.querySelector('[role="alert"]')?.textContent).toBe('Meta refused to subscribe the page Studio Page.');
  });
});

describe('who wrote, in the conversations list', () => {
  it('names the person and their @username, and shows the id only when the profile was not read', () => {
    const client = new QueryClient();
    const base = { lastMessage: 'Hi', lastMessageAt: '2026-01-01T10:00:00.000Z', messageCount: 1 };
    const list: TInboxThreadList = {
      threads: [
        {
          ...base,
          threadId: 'thr_1',
          contactIdentifier: '5550091',
          contactUsername: 'jane.doe',
          contactName: 'Jane Doe',
          handledByUserId: null,
          createdAt: base.lastMessageAt,
        },
        {
          ...base,
          threadId: 'thr_2',
          contactIdentifier: '5550090',
          contactUsername: null,
          contactName: null,
          handledByUserId: null,
          createdAt: base.lastMessageAt,
        },
      ],
      page: 1,
      limit: 25,
      hasMore: false,
    };
    client.setQueryData(['inbox', 'con_ig', 25], list);
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <Inbox connectionId="con_ig" canReply />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(html).toMatch(/Jane Doe<span[^>]*>@jane\.doe<\/span>/);
    expect(html).toContain('>5550090<');
    expect(html).not.toContain('>5550091<');
  });
});
