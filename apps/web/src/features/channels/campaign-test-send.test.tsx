// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CampaignTestSend } from './campaign-test-send';

describe('the test send before a campaign', () => {
  it('asks for the number with a label, says it does not count and how often it may be sent', () => {
    window.localStorage.setItem('campaign-test-number', JSON.stringify('+15551990000'));
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <CampaignTestSend connectionId="con_1" campaignId="cmp_1" />
      </QueryClientProvider>,
    );
    expect(html).toContain('<label');
    expect(html).toContain('for="test-send-cmp_1"');
    expect(html).toContain('Send a test to your number first');
    expect(html).toContain('value="+15551990000"');
    expect(html).toContain('type="tel"');
    expect(html).toContain('it does not count in the campaign. At most 5 tests every 10 minutes.');
    expect(html).toContain('Send test');
  });
});
