// @vitest-environment jsdom
import type { TCampaign, TCampaignTracking, TChannelConnection } from '@switchboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CampaignReport } from './campaign-report';
import { TrackingView } from './campaign-tracking';

const tracking: TCampaignTracking = {
  sent: 40,
  links: 40,
  clicks: 15,
  uniqueClickers: 10,
  previews: 3,
  replies: 4,
  reported: 2,
  reportedValue: 99,
  converted: 12,
  sandbox: true,
  bucket: 'hour',
  points: [{ at: '2026-11-27T06:00:00.000Z', clicks: 10, replies: 4, reported: 2 }],
};

describe('the responses of a campaign', () => {
  it('shows clicks, replies and conversions as "n of m", labels sandbox clicks, and links each reply to its conversation', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <TrackingView
          tracking={tracking}
          subaccountId="sub_1"
          replies={[
            {
              messageId: 'cms_1',
              threadId: 'thr_1',
              contactId: 'ctc_1',
              phone: '+14155553002',
              name: 'Grace Hopper',
              body: 'Is the offer valid on Sunday?',
              at: '2026-11-27T06:10:00.000Z',
            },
          ]}
        />
      </MemoryRouter>,
    );
    expect(html).toContain('10 of 40');
    expect(html).toContain('4 of 40');
    expect(html).toContain('12 of 40');
    expect(html).toContain('25%');
    expect(html).toContain('Sandbox');
    expect(html).toContain('3 link previews were not counted as clicks.');
    expect(html).toContain('aria-label="Replies to this campaign"');
    expect(html).toContain('Is the offer valid on Sunday?');
    expect(html).toContain('href="/sub_1/inbox?thread=thr_1"');
    expect(html).toContain('underline decoration-primary decoration-2');
  });

  it('says when nobody has replied yet', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <TrackingView tracking={{ ...tracking, points: [], sandbox: false }} subaccountId="sub_1" replies={[]} />
      </MemoryRouter>,
    );
    expect(html).toContain('No replies yet.');
    expect(html).toContain('No clicks, replies or conversions yet.');
    expect(html).not.toContain('Sandbox');
  });
});

describe('the Clone action', () => {
  const report = (canEdit: boolean) =>
    renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CampaignReport
            connection={{ connectionId: 'con_1', subaccountId: 'sub_1' } as TChannelConnection}
            campaign={
              {
                campaignId: 'cmp_1',
                name: 'Spring',
                status: 'completed',
                sandbox: false,
                hold: null,
                failures: [],
                figures: { total: 2, queued: 0, sent: 2, delivered: 2, failed: 0, replied: 1, optedOut: 0, skipped: 0 },
              } as unknown as TCampaign
            }
            canEdit={canEdit}
            onEdit={() => undefined}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );

  it('is offered to those who may edit campaigns, not to viewers', () => {
    expect(report(true)).toMatch(/<button[^>]*>Clone<\/button>/);
    expect(report(false)).not.toContain('>Clone<');
  });
});
