// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { ErrorDialog } from './error-dialog';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const expired = () =>
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(
    new Response(
      JSON.stringify({
        error: {
          code: 'SESSION_EXPIRED',
          message: 'This contact last wrote more than 24 hours ago: WhatsApp accepts only an approved template now.',
        },
      }),
      { status: 410, headers: { 'content-type': 'application/json' } },
    ),
  );

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('a closed messaging window (SESSION_EXPIRED)', () => {
  it.each([false, true])('opens the shared error dialog, not a toast (silent call: %s)', async (silent) => {
    const toastError = vi.spyOn(toast, 'error');
    expired();
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    act(() =>
      root.render(
        <MemoryRouter>
          <ErrorDialog />
        </MemoryRouter>,
      ),
    );
    await act(async () => {
      await api('/api/connections/con_1/conversations/thr_1/messages', { body: { content: 'Hi' }, silent }).catch(
        () => undefined,
      );
    });
    const dialog = document.querySelector('[role="dialog"]');
    expect(dialog?.textContent).toContain('Messaging Window Closed');
    expect(dialog?.textContent).toContain('more than 24 hours ago');
    expect(toastError).not.toHaveBeenCalled();
    act(() => root.unmount());
  });
});
