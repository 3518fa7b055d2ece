import { describe, expect, it } from 'vitest';
import { generatorSystem, judgeSystem, rewordSystem } from './prompts';

/** Every prompt whose answer is read as JSON names the keys, also for a model given no schema. */
describe('prompts that expect JSON name their keys', () => {
  it('the reword prompt names "question"', () => {
    expect(rewordSystem(2)).toContain('{"question":');
  });

  it('the generator prompt names "questions", "question" and "criteria"', () => {
    for (const prompt of [
      generatorSystem('industry questions', 3, 'A solar installer'),
      generatorSystem('attacks', 2, '', 'says no'),
    ]) {
      expect(prompt).toContain('{"questions": [{"question":');
      expect(prompt).toContain('"criteria":');
    }
  });

  it('the judge names "passed", "score" and "reasoning" on its first request, not only on the retry', () => {
    const prompt = judgeSystem({ check: false, instruction: '' });
    expect(prompt).toContain('"passed": true or false');
    expect(prompt).toContain('"score":');
    expect(prompt).toContain('"reasoning":');
  });
});
