import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fieldKind,
  labelFromName,
  parseNumberField,
  sliderConfig,
  TIMEZONE_MESSAGES,
  usesSlider,
  validateFieldValue,
  validateTimezone,
} from './dynamic-form';

describe('dynamic form rules (spec/evaluation.md 2.5 and 5)', () => {
  it.each([
    ['max_tokens', 'Max tokens'],
    ['maxTokens', 'Max tokens'],
    ['user_timezone', 'User timezone'],
    ['HTTPStatusCode', 'Http status code'],
    ['query', 'Query'],
  ])('labels %s as %s', (name, label) => expect(labelFromName(name)).toBe(label));

  it.each([
    ['UTC+8', null],
    ['UTC-5', null],
    ['UTC+5:30', null],
    ['UTC+5:45', null],
    ['UTC+14', null],
    ['UTC-12', null],
    ['UTC+15', TIMEZONE_MESSAGES.range],
    ['UTC-13', TIMEZONE_MESSAGES.range],
    ['UTC+5:15', TIMEZONE_MESSAGES.minutes],
    ['GMT+1', TIMEZONE_MESSAGES.format],
    ['UTC', TIMEZONE_MESSAGES.format],
    ['Europe/Paris', TIMEZONE_MESSAGES.format],
  ])('timezone %s gives %s', (value, message) => expect(validateTimezone(value)).toBe(message));

  it('uses a slider when min and max are set or the name mentions a duration', () => {
    expect(usesSlider('count', { type: 'integer', minimum: 1, maximum: 5 })).toBe(true);
    expect(usesSlider('duration', { type: 'number' })).toBe(true);
    expect(usesSlider('meeting_hours', { type: 'integer' })).toBe(true);
    expect(usesSlider('count', { type: 'integer', minimum: 1 })).toBe(false);
    expect(usesSlider('name', { type: 'string', minimum: 1, maximum: 2 })).toBe(false);
    expect(sliderConfig({ type: 'integer' })).toEqual({ min: 0, max: 100, step: 1 });
    expect(sliderConfig({ type: 'number' })).toEqual({ min: 0, max: 100, step: 0.1 });
    expect(sliderConfig({ type: 'number', minimum: 1, maximum: 2, multipleOf: 0.25 })).toEqual({
      min: 1,
      max: 2,
      step: 0.25,
    });
  });

  it('parses numbers: empty is null, integers are whole, min and max hold', () => {
    expect(parseNumberField('', { type: 'number' })).toEqual({ value: null, error: null });
    expect(parseNumberField('2.5', { type: 'integer' }).error).toBe('Enter a whole number');
    expect(parseNumberField('abc', { type: 'number' }).error).toBe('Enter a number');
    expect(parseNumberField('11', { type: 'integer', maximum: 10 }).error).toBe('Must be at most 10');
    expect(parseNumberField('7', { type: 'integer', minimum: 1, maximum: 10 })).toEqual({ value: 7, error: null });
  });

  it('never accepts an integer value outside its range (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (value) => {
        const error = validateFieldValue('count', { type: 'integer', minimum: -5, maximum: 5 }, value);
        expect(error === null).toBe(value >= -5 && value <= 5);
      }),
    );
  });

  it('knows the field kinds, with the unsupported fallback', () => {
    expect(fieldKind({ type: ['string', 'null'] })).toBe('text');
    expect(fieldKind({ type: 'object' })).toBe('unsupported');
    expect(validateFieldValue('tags', { type: 'array', items: { type: 'string' } }, ['a', 3])).toBe('Enter text');
  });
});
