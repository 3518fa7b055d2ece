import { describe, expect, it } from 'vitest';
import {
  OWASP_BY_RED_TEAM_CATEGORY,
  OWASP_LLM_TOP_10,
  type OwaspAttack,
  redTeamCategoryOf,
  scoreOwaspItems,
} from './owasp';
import { RED_TEAM_BY_ID, RED_TEAM_CATEGORIES } from './red-team';

const attacks = (category: string, failed: number, passed: number, errors = 0): OwaspAttack[] => [
  ...Array.from({ length: failed }, () => ({ category, outcome: 'failed' as const })),
  ...Array.from({ length: passed }, () => ({ category, outcome: 'passed' as const })),
  ...Array.from({ length: errors }, () => ({ category, outcome: 'error' as const })),
];

describe('OWASP Top 10 for LLM Applications 2025', () => {
  it('lists the ten 2025 items in order', () => {
    expect(OWASP_LLM_TOP_10.map((item) => item.id)).toEqual(
      Array.from({ length: 10 }, (_, index) => `LLM${String(index + 1).padStart(2, '0')}:2025`),
    );
    expect(OWASP_LLM_TOP_10[6]?.name).toBe('System Prompt Leakage');
  });

  it('maps every red-team category to at least one existing item, and nothing else', () => {
    const ids = new Set(OWASP_LLM_TOP_10.map((item) => item.id));
    expect(Object.keys(OWASP_BY_RED_TEAM_CATEGORY).sort()).toEqual(RED_TEAM_CATEGORIES.map((item) => item.id).sort());
    for (const category of RED_TEAM_CATEGORIES) {
      const items = OWASP_BY_RED_TEAM_CATEGORY[category.id] ?? [];
      expect(items.length, category.id).toBeGreaterThan(0);
      for (const item of items) expect(ids.has(item), `${category.id} → ${item}`).toBe(true);
    }
  });

  it('shows an item no attack reached as Not tested, with no score', () => {
    const items = scoreOwaspItems(attacks('pii-leakage', 1, 1));
    const supply = items.find((item) => item.id === 'LLM03:2025');
    expect(supply).toMatchObject({
      status: 'not-tested',
      score: null,
      rateText: 'Not tested',
      attackSuccessRate: null,
    });
    expect(items.find((item) => item.id === 'LLM01:2025')?.status).toBe('not-tested');
  });

  it('scores severity weight × attack success rate over evaluated attacks, with counts', () => {
    // LLM02 (critical, 1.0): pii-leakage 1 of 3 succeeded, data-exfiltration 1 of 1 (+1 error): 2 of 4 evaluated.
    const items = scoreOwaspItems([...attacks('pii-leakage', 1, 2), ...attacks('data-exfiltration-links', 1, 0, 1)]);
    const llm02 = items.find((item) => item.id === 'LLM02:2025');
    expect(llm02).toMatchObject({
      status: 'scored',
      counts: { attacked: 5, succeeded: 2, resisted: 2, notEvaluated: 1 },
      attackSuccessRate: 0.5,
      score: 50,
      rateText: '50% · 4 of 5 evaluated',
      testedCategories: ['pii-leakage', 'data-exfiltration-links'],
    });
    // LLM05 (high, 0.75): the one evaluated exfiltration attack succeeded.
    expect(items.find((item) => item.id === 'LLM05:2025')?.score).toBe(75);
    // LLM09 (medium, 0.5): fabrication 1 of 4.
    const misinformation = scoreOwaspItems(attacks('fabrication', 1, 3)).find((item) => item.id === 'LLM09:2025');
    expect(misinformation?.score).toBe(13);
  });

  it('gives no score when every attack ended in error', () => {
    const item = scoreOwaspItems(attacks('tool-misuse', 0, 0, 2)).find((entry) => entry.id === 'LLM06:2025');
    expect(item).toMatchObject({ status: 'not-evaluated', score: null, rateText: 'Not evaluated · 0 of 2 evaluated' });
  });

  it('trends against the previous run: up, down, same and new', () => {
    const previous = scoreOwaspItems([
      ...attacks('pii-leakage', 1, 1),
      ...attacks('tool-misuse', 1, 1),
      ...attacks('fabrication', 1, 1),
    ]);
    const items = scoreOwaspItems(
      [
        ...attacks('pii-leakage', 2, 0),
        ...attacks('tool-misuse', 0, 2),
        ...attacks('fabrication', 1, 1),
        ...attacks('base64', 1, 0),
      ],
      previous,
    );
    const byId = (id: string) => items.find((item) => item.id === id)?.trend;
    expect(byId('LLM02:2025')).toEqual({ previousScore: 50, direction: 'up' });
    expect(byId('LLM06:2025')).toEqual({ previousScore: 50, direction: 'down' });
    expect(byId('LLM09:2025')).toEqual({ previousScore: 25, direction: 'same' });
    expect(byId('LLM01:2025')).toEqual({ previousScore: null, direction: 'new' });
    expect(byId('LLM03:2025')).toBeNull();
    expect(scoreOwaspItems(attacks('pii-leakage', 1, 0)).every((item) => item.trend === null)).toBe(true);
  });

  it("finds a question's category by its field or by the library rubric it carries", () => {
    expect(redTeamCategoryOf({ redTeam: 'toxicity' })).toBe('toxicity');
    expect(redTeamCategoryOf({ successCriteria: RED_TEAM_BY_ID.get('crescendo')?.rubric })).toBe('crescendo');
    expect(redTeamCategoryOf({ redTeam: 'unknown', successCriteria: 'Be nice.' })).toBeNull();
  });
});
