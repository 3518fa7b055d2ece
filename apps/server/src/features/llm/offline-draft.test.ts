import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseVerb, offlineDraft, parseIdea } from './offline-draft';

const BRIGHT_SMILE =
  'A friendly front-desk assistant for Bright Smile Dental in Leeds that answers questions about treatments, books check-ups and handles emergencies';

describe('the offline builder reads an idea', () => {
  it('finds the business, the place, the role, the tone and the tasks', () => {
    expect(parseIdea(BRIGHT_SMILE)).toEqual({
      role: 'front-desk assistant',
      business: 'Bright Smile Dental',
      named: true,
      place: 'Leeds',
      tasks: ['answer questions about treatments', 'book check-ups', 'handle emergencies'],
      tone: ['friendly'],
    });
    expect(parseIdea('A support agent for an online bike shop that handles orders, returns and sizing')).toMatchObject({
      role: 'support agent',
      business: 'online bike shop',
      named: false,
      tasks: ['handle orders', 'handle returns', 'handle sizing'],
    });
    expect(
      parseIdea('Helpdesk bot for Acme Plumbing, Manchester: quotes, emergency call-outs and opening hours'),
    ).toMatchObject({
      business: 'Acme Plumbing',
      place: 'Manchester',
      tasks: ['help with quotes', 'help with emergency call-outs', 'help with opening hours'],
    });
    expect(baseVerb('qualifies')).toBe('qualify');
    expect(baseVerb('handles')).toBe('handle');
    expect(baseVerb('books')).toBe('book');
    expect(baseVerb('teaches')).toBe('teach');
  });

  it('writes the Bright Smile draft as a receptionist would', () => {
    const draft = offlineDraft(BRIGHT_SMILE);
    expect(draft.name).toBe('Bright Smile Dental Assistant');
    expect(draft.systemPrompt).toMatch(/^You are the front-desk assistant of Bright Smile Dental in Leeds\./);
    expect(draft.systemPrompt).toContain(
      'you answer questions about treatments, book check-ups and handle emergencies',
    );
    expect(draft.firstMessage).toBe(
      'Hello, and welcome to Bright Smile Dental! I can answer questions about treatments and book check-ups. How can I help you today?',
    );
    expect(draft.suggestedResponses).toEqual([
      'Can you tell me about your treatments?',
      'Can I book a check-up?',
      'Can you help me with an emergency?',
    ]);
  });

  it.each([
    [
      'A friendly receptionist for a dental clinic that books appointments',
      'Dental Clinic Receptionist',
      ['Can I book an appointment?', 'What are your opening hours?', 'How much does it cost?'],
    ],
    [
      'A support agent for an online bike shop that handles orders, returns and sizing',
      'Online Bike Shop Assistant',
      ['Can you help me with my order?', 'Can you help me with my return?', 'Can you help me with sizing?'],
    ],
    [
      'Helpdesk bot for Acme Plumbing, Manchester: quotes, emergency call-outs and opening hours',
      'Acme Plumbing Assistant',
      ['Can I get a quote?', 'Can you help me with an emergency call-out?', 'What are your opening hours?'],
    ],
    [
      'A helpful assistant for Markdown Bakery in York that takes cake orders',
      'Markdown Bakery Assistant',
      ['Can I order a cake?', 'Where in York are you?', 'What are your opening hours?'],
    ],
    [
      'A sales assistant for a solar installer that qualifies homeowners and explains savings',
      'Solar Installer Assistant',
      ['Can you tell me about savings?', 'What are your opening hours?', 'How much does it cost?'],
    ],
    [
      'I need a bot',
      'Website Assistant',
      ['What are your opening hours?', 'How much does it cost?', 'Can I speak to someone from the team?'],
    ],
  ])('drafts %s', (idea, name, suggestions) => {
    const draft = offlineDraft(idea);
    expect(draft.name).toBe(name);
    expect(draft.suggestedResponses).toEqual(suggestions);
    expect(draft.systemPrompt.startsWith('You are the ')).toBe(true);
    expect(draft.firstMessage).toMatch(/^Hello, and welcome/);
  });

  it('never pastes the idea back, and always gives a valid draft for any text', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 3, maxLength: 400 }), (idea) => {
        const draft = offlineDraft(idea);
        expect(draft.name.length).toBeGreaterThan(0);
        expect(draft.name.length).toBeLessThanOrEqual(120);
        expect(draft.suggestedResponses).toHaveLength(3);
        expect(new Set(draft.suggestedResponses).size).toBe(3);
        for (const text of [draft.name, draft.firstMessage, ...draft.suggestedResponses]) {
          if (idea.trim().length > 30) expect(text).not.toContain(idea.trim());
        }
      }),
      { numRuns: 300 },
    );
    for (const idea of [
      BRIGHT_SMILE,
      'A support agent for an online bike shop that handles orders, returns and sizing',
    ]) {
      const draft = offlineDraft(idea);
      for (const text of [draft.systemPrompt, draft.firstMessage, ...draft.suggestedResponses]) {
        expect(text).not.toContain(idea);
        expect(text).not.toContain('A friendly front-desk');
      }
    }
  });

  it('reads a long idea built to make patterns backtrack', () => {
    const draft = offlineDraft(
      `A ${'very '.repeat(400)}assistant for ${'Big '.repeat(400)}in ${'X'.repeat(1000)} that ${'books, '.repeat(200)}`,
    );
    expect(draft.suggestedResponses).toHaveLength(3);
  });
});
