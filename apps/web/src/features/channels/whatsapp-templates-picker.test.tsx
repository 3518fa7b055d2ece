// @vitest-environment jsdom
import type { TWhatsappTemplateOption } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { pickTemplate, WhatsappTemplatePicker } from './whatsapp-templates-picker';

const ORDER: TWhatsappTemplateOption = {
  contentSid: `HX${'5b'.repeat(16)}`,
  name: 'Sandbox: order update',
  language: 'en',
  category: 'UTILITY',
  body: 'Hello {{first_name}}, your order {{order_number}} is on its way.',
  variables: [
    { key: 'first_name', example: 'Ada' },
    { key: 'order_number', example: 'A-1042' },
  ],
};

describe('the template picker of a WhatsApp campaign', () => {
  it('starts name-like variables as the first name and leaves the others to choose', () => {
    expect(pickTemplate(ORDER)).toEqual({
      contentSid: ORDER.contentSid,
      variables: { first_name: { source: 'first_name' } },
    });
  });

  it('shows the approved list, the text, a labelled mapping per variable and the sandbox note', () => {
    const client = new QueryClient();
    client.setQueryData(['channel', 'con_1', 'whatsapp-templates'], {
      templates: [ORDER],
      sandbox: true,
      fetchedAt: new Date().toISOString(),
    });
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <WhatsappTemplatePicker
          connectionId="con_1"
          value={{ contentSid: ORDER.contentSid, variables: { order_number: { source: 'custom', value: 'order' } } }}
          onChange={() => {}}
          errorFor={(field) =>
            field === 'whatsappTemplate.variables.first_name' ? 'Choose what fills {{first_name}}' : null
          }
        />
      </QueryClientProvider>,
    );
    expect(html).toContain('for="whatsapp-template"');
    expect(html).toContain('Sandbox: order update (en)');
    expect(html).toContain('Hello {{first_name}}, your order {{order_number}} is on its way.');
    expect(html).toContain('aria-label="What fills {{first_name}}"');
    expect(html).toContain('aria-label="Custom field for {{order_number}}"');
    expect(html).toContain('Choose what fills {{first_name}}');
    expect(html).toContain('Sandbox templates: messages go to the sandbox phone, never to WhatsApp.');
    expect(html).toContain('Preview with a contact');
  });
});
