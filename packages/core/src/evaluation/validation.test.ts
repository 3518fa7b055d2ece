import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPLIANCE_QUESTIONS, DEFAULT_CUSTOM_QUESTIONS, DEFAULT_PROMPT_HACKING_QUESTIONS } from './defaults';
import { customPromptCount, ZQuestion } from './schemas';
import { countConversations, validateRun, validateTemplateName } from './validation';

const base = {
  testingModel: 'gpt-4o',
  checkedItems: { 'custom-questions': true, compliance: false, 'prompt-hacking': false },
  customQuestions: DEFAULT_CUSTOM_QUESTIONS,
  complianceQuestions: DEFAULT_COMPLIANCE_QUESTIONS,
  promptHackingQuestions: DEFAULT_PROMPT_HACKING_QUESTIONS,
};

describe('evaluation rules (spec section 5)', () => {
  it('holds the default question sets of section 3', () => {
    expect(DEFAULT_CUSTOM_QUESTIONS).toHaveLength(1);
    expect(DEFAULT_COMPLIANCE_QUESTIONS).toHaveLength(8);
    expect(DEFAULT_PROMPT_HACKING_QUESTIONS).toHaveLength(6);
    for (const question of [
      ...DEFAULT_CUSTOM_QUESTIONS,
      ...DEFAULT_COMPLIANCE_QUESTIONS,
      ...DEFAULT_PROMPT_HACKING_QUESTIONS,
    ]) {
      expect(ZQuestion.parse(question)).toMatchObject({ variations: 3 });
      expect(question.text.length).toBeGreaterThan(10);
      expect(question.successCriteria.length).toBeGreaterThan(10);
    }
    expect(DEFAULT_PROMPT_HACKING_QUESTIONS.filter((question) => question.whenToAsk === 2)).toHaveLength(2);
  });

  it('needs a testing model, then a checked category with questions', () => {
    expect(validateRun({ ...base, testingModel: ' ' })?.message).toBe('Please select a testing model');
    expect(
      validateRun({ ...base, checkedItems: { 'custom-questions': false, compliance: false, 'prompt-hacking': false } })
        ?.message,
    ).toBe('Please select at least one testing question category with questions');
    expect(validateRun({ ...base, customQuestions: [] })?.message).toBe(
      'Please select at least one testing question category with questions',
    );
    expect(validateRun(base)).toBeNull();
  });

  it('counts one conversation per selected question and variation, plus the original', () => {
    expect(countConversations(base)).toBe(4);
    expect(
      countConversations({
        ...base,
        checkedItems: { 'custom-questions': true, compliance: true, 'prompt-hacking': false },
      }),
    ).toBe(4 + 8 * 4);
  });

  it('bounds the steppers and caps custom generation counts at 50', () => {
    expect(ZQuestion.safeParse({ ...DEFAULT_CUSTOM_QUESTIONS[0], variations: 11 }).success).toBe(false);
    expect(ZQuestion.safeParse({ ...DEFAULT_CUSTOM_QUESTIONS[0], variations: 0 }).success).toBe(true);
    expect(ZQuestion.safeParse({ ...DEFAULT_CUSTOM_QUESTIONS[0], whenToAsk: 0 }).success).toBe(false);
    expect(ZQuestion.safeParse({ ...DEFAULT_CUSTOM_QUESTIONS[0], whenToAsk: 10 }).success).toBe(true);
    expect(customPromptCount('75')).toBe(50);
    expect(customPromptCount('7')).toBe(7);
    expect(customPromptCount('x')).toBe(0);
  });

  it('refuses a blank template name', () => {
    expect(validateTemplateName('  ')).toBe('Please enter a template name');
    expect(validateTemplateName('Launch')).toBeNull();
  });
});
