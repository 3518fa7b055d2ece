import type { TCampaign, TCampaignEstimate } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { confirmationText, costText } from './campaign-confirm';

const campaign = (overrides: Partial<TCampaign> = {}) =>
  ({
    campaignId: 'cmp_1',
    name: 'Whitening',
    status: 'draft',
    sendAt: null,
    timeZone: 'Europe/London',
    figures: { total: 0, queued: 0, sent: 0 },
    ...overrides,
  }) as unknown as TCampaign;

describe('the confirmations before a campaign acts', () => {
  it('states how many contacts "Send now" reaches, whom it skips and who waits for quiet hours', () => {
    expect(
      confirmationText('start', campaign(), {
        contacts: 50,
        suppressed: 1,
        optedOut: 1,
        recipients: 48,
        heldByQuietHours: 5,
      }),
    ).toEqual({
      title: 'Send “Whitening” now?',
      description:
        'It goes out now to 48 contacts; sent messages cannot be taken back. 2 more are skipped: 1 opted out, 1 suppressed (a send failed for good). 5 contacts wait for the end of quiet hours.',
      confirm: 'Send now',
    });
  });

  it('states the cost: segments × the price entered, and that no credits are used', () => {
    const audience = { contacts: 48, suppressed: 0, optedOut: 0, recipients: 48, heldByQuietHours: 0 };
    const estimate: TCampaignEstimate = {
      audience,
      encoding: 'UCS-2',
      segmentsPerMessage: 2,
      segments: 96,
      sampled: false,
      pricePerSegment: { amount: '0.0079', currency: 'USD' },
      cost: { amount: '0.7584', currency: 'USD' },
      credits: 0,
      sandbox: false,
    };
    expect(confirmationText('start', campaign(), audience, estimate).description).toBe(
      'It goes out now to 48 contacts; sent messages cannot be taken back. That is 96 segments (UCS-2, up to 2 per message) × USD 0.0079 = estimated USD 0.7584, charged by your provider. No credits are used.',
    );
    expect(costText({ ...estimate, pricePerSegment: null, cost: null })).toContain(
      'Enter your provider’s price per segment in Settings',
    );
    expect(costText({ ...estimate, sandbox: true })).toContain('Sandbox: nothing reaches a phone');
  });

  it('says when a scheduled one goes out, and what a pause holds back', () => {
    expect(
      confirmationText('start', campaign({ sendAt: '2026-12-04T09:00' }), {
        contacts: 1,
        suppressed: 0,
        optedOut: 0,
        recipients: 1,
        heldByQuietHours: 0,
      }).description,
    ).toBe('It goes out at 2026-12-04 09:00 (Europe/London) to 1 contact.');
    const sending = campaign({
      status: 'sending',
      figures: { total: 50, queued: 30, sent: 20 } as TCampaign['figures'],
    });
    expect(confirmationText('pause', sending, undefined)).toMatchObject({
      title: 'Pause “Whitening”?',
      description: '30 contacts not yet sent to wait until you resume it; 20 of 50 are sent.',
    });
  });
});
