import { type TChannelConnection, TWILIO_WEBHOOK_TOKEN_MISSING } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { WebhookWarning } from './messaging-page';

describe('a Twilio connection saved with an API key only', () => {
  it('says that every inbound webhook will be refused, and how to fix it', () => {
    const html = renderToStaticMarkup(
      <WebhookWarning connection={{ webhookWarning: TWILIO_WEBHOOK_TOKEN_MISSING } as unknown as TChannelConnection} />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Inbound messages are refused');
    expect(html).toContain('Add the auth token');
    expect(
      renderToStaticMarkup(<WebhookWarning connection={{ webhookWarning: null } as unknown as TChannelConnection} />),
    ).toBe('');
  });
});
