// @vitest-environment jsdom
import { ZCampaignSteps } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SequenceEditor, sequenceDraftOf, sequencePayload } from './sequence-editor';

const draft = {
  steps: [{ delay: { amount: '2', unit: 'days' as const }, condition: 'not_replied' as const, message: 'Hi again' }],
  stopOnReply: true,
  stopOnGoal: true,
};

describe('the sequence editor', () => {
  it('labels each step’s delay, condition and message and shows the server’s error on its field', () => {
    const html = renderToStaticMarkup(
      <SequenceEditor
        draft={draft}
        onChange={() => undefined}
        error={{ field: 'steps.0.delay.amount', message: 'The delay is at most 90 days' }}
      />,
    );
    for (const id of ['step-2-delay', 'step-2-unit', 'step-2-condition', 'step-2-message'])
      expect(html).toContain(`for="${id}"`);
    expect(html).toContain('Message of step 2');
    expect(html).toContain('days after step 1');
    expect(html).toContain('Only those who did not reply');
    expect(html).toContain('The delay is at most 90 days');
    expect(html).toContain('Add a step');
    expect(html).toContain('Stop on reply');
    expect(html).toContain('aria-label="Remove step 2"');
  });

  it('sends what the server’s schema accepts, and reads a saved sequence back', () => {
    const payload = sequencePayload(draft);
    expect(ZCampaignSteps.parse(payload.steps)).toEqual([
      { delay: { amount: 2, unit: 'days' }, condition: 'not_replied', message: 'Hi again' },
    ]);
    expect(payload).toMatchObject({ stopOnReply: true, stopOnGoal: true });
    expect(sequenceDraftOf(null)).toEqual({ steps: [], stopOnReply: true, stopOnGoal: true });
  });

  it('offers no more steps once the sequence has ten', () => {
    const full = { ...draft, steps: Array.from({ length: 9 }, () => draft.steps[0] as (typeof draft.steps)[0]) };
    const html = renderToStaticMarkup(<SequenceEditor draft={full} onChange={() => undefined} error={null} />);
    expect(html).toMatch(/<button[^>]*disabled[^>]*>.*Add a step/);
  });
});
