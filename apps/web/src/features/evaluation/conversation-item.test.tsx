import type { TEvaluationConversation } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConversationItem } from './run-status';

const conversation: TEvaluationConversation = {
  id: 'conv_1',
  questionKey: 'custom:q1',
  category: 'custom',
  variation: 0,
  question: 'How much is a 4 kW system?',
  originalQuestion: 'How much is a 4 kW system?',
  successCriteria: '',
  whenToAsk: 1,
  transcript: [
    { role: 'user', content: 'How much is a 4 kW system?' },
    {
      role: 'assistant',
      content: 'It costs 6,000 pounds and installation takes one day.',
      sources: [{ documentId: 'doc_1', name: 'price-list.pdf', excerpt: 'A 4 kW system costs 6,000 pounds.' }],
    },
  ],
  answer: 'It costs 6,000 pounds and installation takes one day.',
  outcome: 'failed',
  passed: false,
  score: 0,
  reasoning: 'Checks only (no success criteria): 0 of 1 checks passed.',
  error: null,
  errorCode: null,
  errorReason: null,
  checks: [
    {
      type: 'faithfulness',
      label: 'Every claim supported by the retrieved excerpts',
      passed: false,
      detail: '1 of 2 claim(s) not supported by the 1 retrieved excerpt(s) (judge model).',
      method: 'judge',
      unsupported: ['Installation takes one day'],
    },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
};

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

describe('a conversation with knowledge-grounded checks', () => {
  it("shows the answer's sources and the unsupported claims under the check", () => {
    const html = renderToStaticMarkup(<ConversationItem conversation={conversation} defaultOpen />);
    expect(html).toContain('aria-label="Sources"');
    expect(text(html)).toContain('Sources (1)');
    expect(text(html)).toContain('price-list.pdf');
    expect(html).toContain('aria-label="Unsupported claims"');
    expect(text(html)).toContain('Installation takes one day');
  });
});
