import type { TConnectionDashboard } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessagesBySender } from './dashboard-page';

const counts = (sources: TConnectionDashboard['channels'][number]['today']['sources']) => ({
  conversations: 1,
  messages: Object.values(sources).reduce((sum, value) => sum + value, 0),
  sources,
});

describe('the dashboard’s messages by sender', () => {
  it('shows a campaign’s and keyword replies’ messages beside the agent’s', () => {
    const sms = counts({ received: 2, agent: 1, person: 1, campaign: 50, keyword: 1 });
    const html = renderToStaticMarkup(
      <MessagesBySender
        data={
          {
            channels: [{ channel: 'sms', today: sms, week: sms, month: sms }],
          } as unknown as TConnectionDashboard
        }
      />,
    );
    expect(html).toContain('Campaigns');
    expect(html).toContain('Keyword replies');
    const row = html.slice(html.indexOf('data-testid="sources-row-sms"'));
    expect(row).toMatch(/SMS<\/th><td[^>]*>2<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td><td[^>]*>50<\/td><td[^>]*>1<\/td>/);
  });
});
