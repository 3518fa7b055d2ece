import { describe, expect, it } from 'vitest';
import { fillWhatsappTemplate, mappedValue, whatsappTemplateKeys, whatsappWindowLabel } from './whatsapp-templates';

const ada = {
  phone: '+15551230000',
  name: 'Ada King Lovelace',
  attributes: { email: 'ada@example.com', plan: 'Gold' },
};

describe('WhatsApp template variables', () => {
  it('finds numbered and named variables in order of use, then the declared ones', () => {
    expect(whatsappTemplateKeys('Hi {{2}} and {{1}}, {{ first_name }}', ['3', '1'])).toEqual([
      '2',
      '1',
      'first_name',
      '3',
    ]);
  });

  it('reads each mapping from the contact', () => {
    expect(mappedValue({ source: 'first_name' }, ada)).toBe('Ada');
    expect(mappedValue({ source: 'last_name' }, ada)).toBe('King Lovelace');
    expect(mappedValue({ source: 'phone' }, ada)).toBe('+15551230000');
    expect(mappedValue({ source: 'email' }, ada)).toBe('ada@example.com');
    expect(mappedValue({ source: 'custom', value: 'plan' }, ada)).toBe('Gold');
    expect(mappedValue({ source: 'custom', value: 'missing' }, ada)).toBeNull();
    expect(mappedValue({ source: 'text', value: 'Friday' }, ada)).toBe('Friday');
    expect(mappedValue({ source: 'last_name' }, { ...ada, name: 'Ada' })).toBeNull();
  });

  it('fills a template and names what is missing', () => {
    expect(fillWhatsappTemplate('Hi {{1}}, on {{day}}', { '1': 'Ada' })).toEqual({
      text: 'Hi Ada, on ',
      missing: ['day'],
    });
  });

  it('counts the window down in hours and minutes', () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    expect(whatsappWindowLabel('2026-05-01T13:12:00Z', now)).toBe('Window closes in 3 h 12 min');
    expect(whatsappWindowLabel('2026-05-01T13:00:00Z', now)).toBe('Window closes in 3 h');
    expect(whatsappWindowLabel('2026-05-01T10:05:00Z', now)).toBe('Window closes in 5 min');
    expect(whatsappWindowLabel('2026-05-01T09:00:00Z', now)).toBe(
      'The 24-hour window has closed: send an approved template.',
    );
  });
});
