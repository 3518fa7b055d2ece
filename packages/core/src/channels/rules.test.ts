import { describe, expect, it } from 'vitest';
import {
  keywordOf,
  nextSendTime,
  renderTemplate,
  SMS_PART_LIMIT,
  smsEncoding,
  splitSms,
  templateVariables,
  zonedLocalToUtc,
} from './rules';

describe('messaging rules', () => {
  it('reads carrier keywords on the whole message only', () => {
    expect(keywordOf(' stop ')).toBe('opt_out');
    expect(keywordOf('Unsubscribe.')).toBe('opt_out');
    expect(keywordOf('START')).toBe('opt_in');
    expect(keywordOf('help')).toBe('help');
    expect(keywordOf('please stop sending')).toBeNull();
  });

  it('counts GSM-7 and UCS-2 segments as carriers do', () => {
    expect(smsEncoding('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsEncoding('a'.repeat(161)).segments).toBe(2);
    expect(smsEncoding('€'.repeat(80))).toMatchObject({ units: 160, segments: 1 });
    expect(smsEncoding('Hi 😀')).toMatchObject({ encoding: 'UCS-2', units: 5, segments: 1 });
  });

  it('splits a long answer into parts that fit, at sentence ends', () => {
    const sentence = 'We install solar panels on every kind of roof. ';
    const parts = splitSms(sentence.repeat(20));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(SMS_PART_LIMIT['GSM-7']);
      expect(part.endsWith('.')).toBe(true);
    }
    expect(parts.join(' ')).toBe(sentence.repeat(20).trim());
    expect(splitSms('Short answer.')).toEqual(['Short answer.']);
    expect(splitSms('x'.repeat(700)).every((part) => part.length <= 306)).toBe(true);
  });

  it('fills template variables and names the missing ones', () => {
    expect(templateVariables('Hi {{first_name}}, {{ company }} and {{first_name}}')).toEqual(['first_name', 'company']);
    expect(renderTemplate('Hi {{first_name}}!', { first_name: 'Ada' })).toEqual({ text: 'Hi Ada!', missing: [] });
    expect(renderTemplate('Hi {{first_name}} from {{company}}', { first_name: ' ' }).missing).toEqual([
      'first_name',
      'company',
    ]);
  });

  it('waits out quiet hours in the contact’s time zone, over midnight too', () => {
    const quiet = { start: '21:00', end: '08:00' };
    // 23:30 in New York (04:30 UTC next day in winter) waits until 08:00 there.
    const late = new Date('2026-01-15T04:30:00Z');
    expect(nextSendTime(late, 'America/New_York', quiet).toISOString()).toBe('2026-01-15T13:00:00.000Z');
    const noon = new Date('2026-01-15T17:00:00Z');
    expect(nextSendTime(noon, 'America/New_York', quiet)).toBe(noon);
    expect(nextSendTime(late, 'America/New_York', null)).toBe(late);
  });

  it('reads a local schedule in the sub-account’s time zone', () => {
    expect(zonedLocalToUtc('2026-05-01T09:00', 'Europe/Berlin').toISOString()).toBe('2026-05-01T07:00:00.000Z');
    expect(zonedLocalToUtc('2026-01-10T09:00', 'America/New_York').toISOString()).toBe('2026-01-10T14:00:00.000Z');
    expect(zonedLocalToUtc('2026-01-10T09:00', 'UTC').toISOString()).toBe('2026-01-10T09:00:00.000Z');
  });
});
