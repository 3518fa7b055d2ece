import { describe, expect, it } from 'vitest';
import { minimizedSizeName } from './constants';
import { DESIGNER_WIDGET_DEFAULTS, STORED_WIDGET_DEFAULTS } from './defaults';
import { localised, WIDGET_LANGUAGES, WIDGET_STRINGS } from './i18n';
import { ZWidgetSettings } from './schemas';
import { shortAgoLabel, timeAgoLabel } from './time';

describe('widget rules', () => {
  it('separates designer and stored defaults', () => {
    expect(STORED_WIDGET_DEFAULTS.height).toBe(500);
    expect(STORED_WIDGET_DEFAULTS.chatBubble.delaySeconds).toBe(2);
    expect(DESIGNER_WIDGET_DEFAULTS.height).toBe(700);
    expect(DESIGNER_WIDGET_DEFAULTS.chatBubble.delaySeconds).toBe(0);
    expect(ZWidgetSettings.safeParse(STORED_WIDGET_DEFAULTS).success).toBe(true);
    expect(ZWidgetSettings.safeParse(DESIGNER_WIDGET_DEFAULTS).success).toBe(true);
  });

  it('has every string in the 16 languages, and translates only texts left at their English default', () => {
    expect(WIDGET_LANGUAGES).toHaveLength(16);
    for (const language of WIDGET_LANGUAGES) {
      const strings = WIDGET_STRINGS[language];
      for (const value of Object.values(strings)) expect(value.length).toBeGreaterThan(0);
      expect(strings.suggestedResponses).toHaveLength(3);
    }
    expect(localised('New Conversation', 'newConversation', 'es')).toBe('Nueva conversación');
    expect(localised('Talk to us', 'newConversation', 'es')).toBe('Talk to us');
  });

  it('labels times: Just now, minutes, hours, days up to 7, then the date; badge now, m, h, d, mo', () => {
    const now = Date.UTC(2026, 0, 31, 12);
    expect(timeAgoLabel(now - 30_000, now)).toBe('Just now');
    expect(timeAgoLabel(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(timeAgoLabel(now - 60 * 60_000, now)).toBe('1 hour ago');
    expect(timeAgoLabel(now - 3 * 86_400_000, now)).toBe('3 days ago');
    expect(timeAgoLabel(now - 8 * 86_400_000, now)).toBe(new Date(now - 8 * 86_400_000).toLocaleDateString('en'));
    expect(shortAgoLabel(now - 10_000, now)).toBe('now');
    expect(shortAgoLabel(now - 5 * 60_000, now)).toBe('5m');
    expect(shortAgoLabel(now - 2 * 3_600_000, now)).toBe('2h');
    expect(shortAgoLabel(now - 2 * 86_400_000, now)).toBe('2d');
    expect(shortAgoLabel(now - 65 * 86_400_000, now)).toBe('2mo');
  });

  it('labels times in every widget language', () => {
    const now = Date.UTC(2026, 0, 31, 12);
    expect(timeAgoLabel(now - 30_000, now, 'de')).toBe('Gerade eben');
    expect(timeAgoLabel(now - 5 * 60_000, now, 'de')).toBe('vor 5 Minuten');
    expect(timeAgoLabel(now - 5 * 60_000, now, 'es')).toBe('hace 5 minutos');
    expect(timeAgoLabel(now - 3_600_000, now, 'fr')).toBe('il y a 1 heure');
    expect(timeAgoLabel(now - 2 * 86_400_000, now, 'ja')).toBe('2 日前');
    expect(timeAgoLabel(now - 2 * 60_000, now, 'pl')).toBe('2 minuty temu');
    expect(timeAgoLabel(now - 5 * 60_000, now, 'pl')).toBe('5 minut temu');
    expect(shortAgoLabel(now - 2 * 3_600_000, now, 'en')).toBe('2h');
    for (const language of WIDGET_LANGUAGES) {
      const labels = [30_000, 5 * 60_000, 3 * 3_600_000, 2 * 86_400_000].map((ago) =>
        timeAgoLabel(now - ago, now, language),
      );
      expect(new Set(labels).size, language).toBe(4);
      if (language !== 'en')
        expect(
          labels.some((label) => /ago|Just now/.test(label)),
          language,
        ).toBe(false);
      expect(shortAgoLabel(now - 5 * 60_000, now, language)).toMatch(/5/);
    }
  });

  it('maps launcher pixels to sizes: up to 55 small, up to 72 medium, else large', () => {
    expect(minimizedSizeName(55)).toBe('small');
    expect(minimizedSizeName(56)).toBe('medium');
    expect(minimizedSizeName(72)).toBe('medium');
    expect(minimizedSizeName(73)).toBe('large');
  });
});
