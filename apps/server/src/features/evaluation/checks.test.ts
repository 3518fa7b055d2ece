import { ZQuestionCheck } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { type CheckInput, regexProblem, runCheck, similarity, validateQuestionChecks } from './checks';

const input = (overrides: Partial<CheckInput> = {}): CheckInput => ({
  answer: 'Our 4 kW system costs 6,000 pounds. {"price": 6000, "currency": "GBP"}',
  latencyMs: 120,
  credits: 0.5,
  toolCalls: [{ name: 'book_site_visit', input: { city: 'Leeds', date: '2026-01-02' } }],
  ...overrides,
});

const check = (value: unknown) => ZQuestionCheck.parse(value);

describe('question checks', () => {
  it.each([
    [{ type: 'contains', value: '6,000 POUNDS' }, true],
    [{ type: 'contains', value: 'euros' }, false],
    [{ type: 'not_contains', value: 'euros' }, true],
    [{ type: 'not_contains', value: 'system' }, false],
    [{ type: 'regex', pattern: '\\d+ kW' }, true],
    [{ type: 'regex', pattern: '^costs', ignoreCase: true }, false],
    [{ type: 'json_shape', shape: { price: 'number', currency: 'string' } }, true],
    [{ type: 'json_shape', shape: { price: 'string' } }, false],
    [{ type: 'json_shape', shape: { warranty: 'any' } }, false],
    [{ type: 'max_latency', ms: 200 }, true],
    [{ type: 'max_latency', ms: 100 }, false],
    [{ type: 'max_cost', credits: 1 }, true],
    [{ type: 'max_cost', credits: 0.1 }, false],
    [{ type: 'tool_called', tool: 'book_site_visit' }, true],
    [{ type: 'tool_called', tool: 'book_site_visit', args: { city: 'leeds' } }, true],
    [{ type: 'tool_called', tool: 'book_site_visit', args: { city: 'York' } }, false],
    [{ type: 'tool_not_called', tool: 'refund' }, true],
    [{ type: 'tool_not_called', tool: 'book_site_visit' }, false],
    [{ type: 'refusal' }, false],
    [{ type: 'similarity', reference: 'A 4 kW system costs 6,000 pounds', min: 0.5 }, true],
    [{ type: 'similarity', reference: 'We do not sell heat pumps in Bristol', min: 0.5 }, false],
  ])('%j passes: %s', (given, expected) => {
    const result = runCheck(check(given), input());
    expect(result.passed).toBe(expected);
    expect(result.label).toBeTruthy();
    expect(result.detail).toBeTruthy();
  });

  it('matches tool_called and tool_not_called on the name people know, whatever its case', () => {
    const calls = input({
      toolCalls: [
        { name: 'GOOGLECALENDAR_CREATE_EVENT', input: {} },
        { name: 'GET_WEATHER', input: {} },
      ],
    });
    expect(runCheck(check({ type: 'tool_called', tool: 'googlecalendar_create_event' }), calls).passed).toBe(true);
    expect(runCheck(check({ type: 'tool_called', tool: 'get_weather' }), calls).passed).toBe(true);
    expect(runCheck(check({ type: 'tool_called', tool: 'googlecalendar-create-event' }), calls).passed).toBe(true);
    expect(runCheck(check({ type: 'tool_not_called', tool: 'get_weather' }), calls).passed).toBe(false);
    expect(runCheck(check({ type: 'tool_called', tool: 'get_weather_now' }), calls).passed).toBe(false);
  });

  it('recognises a refusal', () => {
    expect(runCheck({ type: 'refusal' }, input({ answer: "I'm sorry, but I can't share that." })).passed).toBe(true);
    expect(runCheck({ type: 'refusal' }, input({ answer: 'I cannot help with that request.' })).passed).toBe(true);
  });

  it('scores similarity from 0 to 1', () => {
    expect(similarity('solar panels for roofs', 'solar panels for roofs')).toBeCloseTo(1);
    expect(similarity('solar panels', 'heat pumps')).toBe(0);
  });
});

describe('regex guard', () => {
  it.each(['(a+)+$', '(a*)*b', '(x+x+)+y', '(\\w+\\s?)*$'])('refuses the backtracking pattern %s', (pattern) => {
    expect(regexProblem(pattern)).toMatch(/backtrack/);
  });

  it('refuses invalid patterns, backreferences and long patterns', () => {
    expect(regexProblem('(unclosed')).toBe('The regex is not valid');
    expect(regexProblem('(a)\\1')).toMatch(/Backreferences/);
    expect(regexProblem('a'.repeat(201))).toMatch(/at most 200/);
    expect(regexProblem('\\d{4}-\\d{2}')).toBeNull();
  });

  it('fails a refused pattern without running it on a hostile answer', () => {
    const result = runCheck(
      { type: 'regex', pattern: '(a+)+$', ignoreCase: false },
      input({ answer: `${'a'.repeat(50_000)}!` }),
    );
    expect(result).toMatchObject({ passed: false, detail: expect.stringMatching(/backtrack/) });
  });

  it('answers 422 naming the question and check of a bad pattern', () => {
    const question = {
      id: 'q',
      text: 'Hi',
      selected: true,
      isEditing: false,
      variations: 0,
      whenToAsk: 1,
      successCriteria: '',
      isSuccessCriteriaEditing: false,
      checks: [check({ type: 'contains', value: 'x' }), check({ type: 'regex', pattern: '(a+)+' })],
    };
    expect(() => validateQuestionChecks({ customQuestions: [question] })).toThrowError(
      expect.objectContaining({ status: 422, field: 'customQuestions.0.checks.1.pattern' }),
    );
  });
});
