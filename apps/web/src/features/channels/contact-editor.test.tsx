// @vitest-environment jsdom
import type { TContact } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContactEditor, suppressionLabel } from './contact-editor';

const contact = (overrides: Partial<TContact> = {}): TContact => ({
  contactId: 'ctc_1',
  phone: '+15551230001',
  name: 'Ada',
  tags: ['vip'],
  optedOut: false,
  optedOutAt: null,
  suppression: null,
  timeZone: 'Europe/London',
  attributes: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const render = (value: TContact) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <ContactEditor connectId="con_1" contact={value} onSaved={() => {}} onClose={() => {}} />
    </QueryClientProvider>,
  );

describe('a contact’s state and editor', () => {
  it('says why a number gets no messages', () => {
    expect(suppressionLabel(contact())).toBe('Subscribed');
    expect(
      suppressionLabel(
        contact({
          optedOut: true,
          suppression: {
            source: 'failed',
            keyword: null,
            errorCode: '21211',
            errorMessage: 'Not a valid phone number',
            clearable: true,
          },
        }),
      ),
    ).toBe('Suppressed: Not a valid phone number (21211)');
    expect(
      suppressionLabel(
        contact({
          optedOut: true,
          suppression: { source: 'keyword', keyword: 'STOP', errorCode: null, errorMessage: null, clearable: false },
        }),
      ),
    ).toBe('Opted out (texted STOP)');
  });

  it('edits name, tags, time zone and opt-in with labels, and offers Delete', () => {
    const html = render(contact());
    for (const label of ['Name', 'Tags (comma-separated)', 'Time zone (for quiet hours)', 'Gets messages'])
      expect(html).toContain(label);
    expect(html).toContain('value="Europe/London"');
    expect(html).toMatch(/type="checkbox" checked=""/);
    expect(html).toContain('Delete contact');
  });

  it('does not let a person subscribe a number that texted STOP', () => {
    const html = render(
      contact({
        optedOut: true,
        suppression: { source: 'keyword', keyword: 'STOP', errorCode: null, errorMessage: null, clearable: false },
      }),
    );
    expect(html).toMatch(/type="checkbox" disabled=""/);
    expect(html).toContain('only its own START subscribes it again');
  });
});
