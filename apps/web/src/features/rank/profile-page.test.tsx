// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfileForm } from './profile-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const saved = { name: 'Avery', businessName: '', image: null };

/** Types into a controlled input the way a browser does. */
const type = (input: HTMLInputElement, value: string) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the marketplace profile form', () => {
  it('shows no fields until the saved profile is loaded, and a refetch never overwrites what is typed', async () => {
    const asked: ((response: Response) => void)[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => asked.push(resolve)));
    const client = new QueryClient();
    const host = document.createElement('div');
    document.body.append(host);
    act(() =>
      createRoot(host).render(
        <QueryClientProvider client={client}>
          <ProfileForm />
        </QueryClientProvider>,
      ),
    );
    // Nothing to type into while the profile is on its way.
    expect(host.querySelector('#profile-business')).toBeNull();
    const wait = () => act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
    /** Answers the profile request once it has been made (a busy machine may take a while). */
    const respond = async () => {
      for (let i = 0; i < 500 && !asked.length; i += 1) await wait();
      const answer = asked.shift();
      await act(async () =>
        answer?.(new Response(JSON.stringify(saved), { status: 200, headers: { 'content-type': 'application/json' } })),
      );
    };
    /** Waits (a busy machine may take a while) until the query is no longer fetching and the form has rendered. */
    const settled = async () => {
      for (let i = 0; i < 500 && client.isFetching() > 0; i += 1) await wait();
      // The query tells its components on a timer of its own.
      await wait();
    };
    await respond();
    await settled();
    const business = host.querySelector('#profile-business') as HTMLInputElement;
    expect((host.querySelector('#profile-name') as HTMLInputElement).value).toBe('Avery');
    act(() => type(business, 'Demo Agency Ltd'));
    await act(async () => {
      void client.invalidateQueries({ queryKey: ['user-profile'] });
    });
    await respond();
    await settled();
    expect(client.getQueryState(['user-profile'])?.dataUpdateCount).toBe(2);
    expect((host.querySelector('#profile-business') as HTMLInputElement).value).toBe('Demo Agency Ltd');
  });
});
