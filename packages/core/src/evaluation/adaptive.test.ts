import { describe, expect, it } from 'vitest';
import {
  adaptiveCategoryOfKey,
  adaptiveGoals,
  countAdaptiveAttacks,
  DEFAULT_ADAPTIVE_ATTACK_SETTINGS,
  ZAdaptiveAttackSettings,
} from './adaptive';
import { countConversations, validateRun } from './validation';

const base = {
  testingModel: 'gpt-4o',
  checkedItems: { 'custom-questions': false, compliance: false, 'prompt-hacking': false },
  customQuestions: [],
  complianceQuestions: [],
  promptHackingQuestions: [],
};

describe('adaptive attack settings', () => {
  it('counts each strategy against each goal, and lets a run hold only adaptive attacks', () => {
    const settings = { strategies: ['crescendo', 'iterative'] as const, customGoals: ['Promise a refund'] };
    expect(countAdaptiveAttacks({ ...settings, strategies: [...settings.strategies] })).toBe(6);
    expect(validateRun(base)).not.toBeNull();
    const adaptive = { ...base, settings: { adaptiveAttacks: { strategies: ['goal-driven' as const] } } };
    expect(validateRun(adaptive)).toBeNull();
    expect(countConversations(adaptive)).toBe(DEFAULT_ADAPTIVE_ATTACK_SETTINGS.categories.length);
  });

  it('keys an attack by strategy and goal, naming the category for the OWASP report', () => {
    const goals = adaptiveGoals(ZAdaptiveAttackSettings.parse({ customGoals: ['Swear'] }));
    expect(goals.map((goal) => goal.id)).toEqual(['prompt-extraction', 'instruction-override', 'goal-1']);
    expect(adaptiveCategoryOfKey('adaptive:crescendo:prompt-extraction')).toBe('prompt-extraction');
    expect(adaptiveCategoryOfKey('adaptive:iterative:goal-1')).toBeNull();
    expect(adaptiveCategoryOfKey('custom:q1')).toBeNull();
  });

  it('refuses budgets out of range and unknown categories', () => {
    expect(ZAdaptiveAttackSettings.safeParse({ maxCalls: 1 }).success).toBe(false);
    expect(ZAdaptiveAttackSettings.safeParse({ maxTurns: 11 }).success).toBe(false);
    expect(ZAdaptiveAttackSettings.safeParse({ categories: ['nope'] }).success).toBe(false);
  });
});
