// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { WhatsappReplyGate } from './whatsapp-templates-inbox';

const render = (window: object) => {
  const client = new QueryClient();
  client.setQueryData(['whatsapp-window', 'con_1', 'thr_1'], window);
  client.setQueryData(['channel', 'con_1', 'whatsapp-templates'], {
    templates: [
      {
        contentSid: `HX${'c1'.repeat(16)}`,
        name: 'appointment_reminder',
        language: 'en',
        category: 'UTILITY',
        body: 'Hi {{1}}, see you on {{2}}.',
        variables: [
          { key: '1', example: 'Ada' },
          { key: '2', example: 'Monday' },
        ],
      },
    ],
    sandbox: false,
    fetchedAt: new Date().toISOString(),
  });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <WhatsappReplyGate enabled connectionId="con_1" threadId="thr_1" contactName="Dana Scully" canReply>
        <form aria-label="Free text">free text box</form>
      </WhatsappReplyGate>
    </QueryClientProvider>,
  );
};

describe('the reply box of a WhatsApp thread', () => {
  it('counts the open window down and keeps the free text reply', () => {
    const closesAt = new Date(Date.now() + (3 * 60 + 12) * 60_000 - 1_000).toISOString();
    const html = render({ applies: true, open: true, lastInboundAt: new Date().toISOString(), closesAt });
    expect(html).toContain('Window closes in 3 h 12 min');
    expect(html).toContain('free text box');
    expect(html).not.toContain('Send a template');
  });

  it('offers approved templates instead of free text once the window has closed', () => {
    const closesAt = new Date(Date.now() - 60_000).toISOString();
    const html = render({ applies: true, open: false, lastInboundAt: new Date().toISOString(), closesAt });
    expect(html).toContain('The 24-hour window has closed: send an approved template.');
    expect(html).not.toContain('free text box');
    expect(html).toContain('Send a template');
    expect(html).toContain('for="template-thr_1"');
    expect(html).toContain('appointment_reminder');
  });
});
