import { describe, expect, it } from 'vitest';
import { applyMentorChange, mentorFieldText, mentorFieldValue } from './apply';
import { diffLines } from './diff';
import { OFFLINE_RULES, offlineReview } from './offline-review';
import type { TMentorReviewContext } from './schemas';

const bare: TMentorReviewContext = {
  agent: {
    name: 'Harbor Helper',
    systemPrompt: 'You help visitors of Harbor Dental.',
    firstMessage: '',
    suggestedResponses: [],
  },
  documents: [],
  conversation: [],
  evaluation: null,
};

describe('applying a mentor change', () => {
  it('replaces an excerpt that occurs once, the whole text, or fills an empty field', () => {
    expect(applyMentorChange('one\ntwo\nthree', 'two', 'TWO')).toBe('one\nTWO\nthree');
    expect(applyMentorChange('same', 'same', 'other')).toBe('other');
    expect(applyMentorChange('', '', 'Hello')).toBe('Hello');
    expect(applyMentorChange('  ', '', 'Hello')).toBe('Hello');
    expect(applyMentorChange('a $& b', 'b', '$&')).toBe('a $& $&');
  });

  it('refuses an excerpt that is gone, repeated, or an empty before on a filled field', () => {
    expect(applyMentorChange('one two', 'three', 'x')).toBeNull();
    expect(applyMentorChange('la la', 'la', 'x')).toBeNull();
    expect(applyMentorChange('filled', '', 'x')).toBeNull();
  });

  it('reads suggested questions one a line', () => {
    const fields = { systemPrompt: '', firstMessage: '', suggestedResponses: ['A?', 'B?'] };
    expect(mentorFieldText(fields, 'suggestedResponses')).toBe('A?\nB?');
    expect(mentorFieldValue('suggestedResponses', ' A?\n\nB? \n')).toEqual(['A?', 'B?']);
    expect(mentorFieldValue('firstMessage', 'Hi\n')).toBe('Hi\n');
  });
});

describe('the line diff', () => {
  it('keeps common lines and marks removed before added', () => {
    expect(diffLines('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
    expect(diffLines('', 'x')).toEqual([{ kind: 'added', text: 'x' }]);
    expect(diffLines('x', '')).toEqual([{ kind: 'removed', text: 'x' }]);
  });
});

describe('the offline reviewer', () => {
  it('finds a missing first message, suggested questions and instruction rules, the same every time', () => {
    const review = offlineReview(bare);
    expect(review).toEqual(offlineReview(structuredClone(bare)));
    expect(review.suggestions.map((suggestion) => suggestion.title)).toEqual([
      'Add a first message',
      'Add suggested questions',
      'Say what to do when the answer is unknown',
      'Add a hand-over rule',
      'Set the tone of voice',
    ]);
    const [first, questions, fallback] = review.suggestions;
    expect(first).toMatchObject({
      field: 'firstMessage',
      before: '',
      after: "Hi! I'm Harbor Helper. How can I help you today?",
    });
    expect(questions?.after.split('\n')).toHaveLength(3);
    expect(fallback).toMatchObject({
      field: 'systemPrompt',
      before: 'You help visitors of Harbor Dental.',
      after: `You help visitors of Harbor Dental.\n${OFFLINE_RULES.fallback}`,
    });
    expect(review.summary).toContain('Found 5 improvements');
  });

  it('suggests nothing for a complete agent', () => {
    const review = offlineReview({
      ...bare,
      agent: {
        ...bare.agent,
        systemPrompt: `You help visitors. ${OFFLINE_RULES.tone} ${OFFLINE_RULES.fallback} ${OFFLINE_RULES.escalation}`,
        firstMessage: 'Hello!',
        suggestedResponses: ['A?', 'B?', 'C?'],
      },
    });
    expect(review.suggestions).toEqual([]);
    expect(review.summary).toContain('found nothing to improve');
  });

  it('writes whole instructions for an agent without any', () => {
    const review = offlineReview({ ...bare, agent: { ...bare.agent, systemPrompt: '' }, documents: ['prices.md'] });
    const instructions = review.suggestions.find((suggestion) => suggestion.field === 'systemPrompt');
    expect(instructions?.before).toBe('');
    expect(instructions?.after).toContain('prices.md');
    expect(instructions?.after).toContain(OFFLINE_RULES.escalation);
    expect(review.suggestions.filter((suggestion) => suggestion.field === 'systemPrompt')).toHaveLength(1);
  });

  it('reads failed evaluation questions with and without knowledge coverage, and admitted unknowns', () => {
    const complete = `You help visitors. ${OFFLINE_RULES.tone} ${OFFLINE_RULES.fallback} ${OFFLINE_RULES.escalation} Use your documents.`;
    const review = offlineReview({
      agent: { name: 'Sol', systemPrompt: complete, firstMessage: 'Hi', suggestedResponses: ['A?', 'B?', 'C?'] },
      documents: ['warranty.pdf'],
      conversation: [
        { threadId: 't1', role: 'user', content: 'Do you install heat pumps?' },
        { threadId: 't1', role: 'assistant', content: "I'm not sure about that, sorry." },
        { threadId: 't2', role: 'user', content: 'Hello' },
        { threadId: 't2', role: 'assistant', content: 'Hello! How can I help?' },
      ],
      evaluation: {
        name: 'Nightly',
        passRate: 0.5,
        passed: 2,
        failedCount: 2,
        failed: [
          { question: 'Do you offer financing?', successCriteria: '', answer: '', reasoning: '', knowledgeMatch: null },
          {
            question: 'How long is the warranty?',
            successCriteria: '',
            answer: '',
            reasoning: '',
            knowledgeMatch: 'warranty.pdf',
          },
        ],
      },
    });
    expect(review.suggestions.map((suggestion) => suggestion.title)).toEqual([
      'Cover the questions the last evaluation failed',
      'Use the documents that answer failed questions',
      'Handle the questions visitors could not get answered',
    ]);
    expect(review.suggestions[0]?.after).toContain('"Do you offer financing?"');
    expect(review.suggestions[0]?.why).toContain('pass rate 50%');
    expect(review.suggestions[1]?.after).toContain('"How long is the warranty?" (warranty.pdf)');
    expect(review.suggestions[2]?.after).toContain('"Do you install heat pumps?"');
    // Each applies to the instructions, one after the other.
    let text = complete;
    for (const suggestion of review.suggestions) {
      const next = applyMentorChange(text, suggestion.before, suggestion.after);
      expect(next).not.toBeNull();
      text = next ?? text;
    }
    expect(text).toContain('financing');
    expect(text).toContain('heat pumps');
  });
});
