/** Time labels of the visitor widget (spec 2.8) in its 16 languages. Zod-free: the widget bundle imports it. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "Just now" in each widget language (Intl says "now", which reads as a clock, not as an age). */
const JUST_NOW: Record<string, string> = {
  en: 'Just now',
  es: 'Justo ahora',
  fr: "À l'instant",
  de: 'Gerade eben',
  pt: 'Agora mesmo',
  it: 'Proprio ora',
  zh: '刚刚',
  ja: 'たった今',
  ar: 'الآن',
  hi: 'अभी अभी',
  ru: 'Только что',
  ko: '방금',
  nl: 'Zojuist',
  tr: 'Az önce',
  pl: 'Przed chwilą',
  da: 'Lige nu',
};

const relative = (locale: string) => {
  try {
    return new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'long' });
  } catch {
    return new Intl.RelativeTimeFormat('en', { numeric: 'always', style: 'long' });
  }
};

/**
 * Under 1 minute Just now, then minutes, hours and days ago up to 7 days, then the date, in the
 * widget's language (the plural rules of every language come from the browser's Intl).
 */
export const timeAgoLabel = (timestamp: number, now: number = Date.now(), locale = 'en'): string => {
  const diff = Math.max(0, now - timestamp);
  if (diff < MINUTE) return JUST_NOW[locale] ?? JUST_NOW.en ?? 'Just now';
  if (diff < 7 * DAY) {
    const format = relative(locale);
    if (diff < HOUR) return format.format(-Math.floor(diff / MINUTE), 'minute');
    if (diff < DAY) return format.format(-Math.floor(diff / HOUR), 'hour');
    return format.format(-Math.floor(diff / DAY), 'day');
  }
  try {
    return new Date(timestamp).toLocaleDateString(locale);
  } catch {
    return new Date(timestamp).toLocaleDateString('en');
  }
};

const SHORT_NOW: Record<string, string> = { ...JUST_NOW, en: 'now' };

const narrow = (locale: string, value: number, unit: 'minute' | 'hour' | 'day' | 'month') =>
  new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'narrow' }).format(value);

/**
 * The short label of the unread badge: now, m, h, d and mo in English; in the other languages the
 * same steps with the language's narrow units (de "5 Min.", ja "5分").
 */
export const shortAgoLabel = (timestamp: number, now: number = Date.now(), locale = 'en'): string => {
  const diff = Math.max(0, now - timestamp);
  if (diff < MINUTE) return SHORT_NOW[locale] ?? 'now';
  const [value, unit, english] =
    diff < HOUR
      ? ([Math.floor(diff / MINUTE), 'minute', 'm'] as const)
      : diff < DAY
        ? ([Math.floor(diff / HOUR), 'hour', 'h'] as const)
        : diff < 30 * DAY
          ? ([Math.floor(diff / DAY), 'day', 'd'] as const)
          : ([Math.floor(diff / (30 * DAY)), 'month', 'mo'] as const);
  if (locale === 'en' || !(locale in SHORT_NOW)) return `${value}${english}`;
  try {
    return narrow(locale, value, unit);
  } catch {
    return `${value}${english}`;
  }
};
