/** Time labels of the visitor widget (spec 2.8). Zod-free: the widget bundle imports it. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Under 1 minute Just now, then minutes, hours and days ago up to 7 days, then the date. */
export const timeAgoLabel = (timestamp: number, now: number = Date.now(), locale = 'en'): string => {
  const diff = Math.max(0, now - timestamp);
  if (diff < MINUTE) return 'Just now';
  if (diff < HOUR) {
    const m = Math.floor(diff / MINUTE);
    return `${m} minute${m === 1 ? '' : 's'} ago`;
  }
  if (diff < DAY) {
    const h = Math.floor(diff / HOUR);
    return `${h} hour${h === 1 ? '' : 's'} ago`;
  }
  if (diff < 7 * DAY) {
    const d = Math.floor(diff / DAY);
    return `${d} day${d === 1 ? '' : 's'} ago`;
  }
  return new Date(timestamp).toLocaleDateString(locale);
};

/** The short label of the unread badge: now, m, h, d and mo. */
export const shortAgoLabel = (timestamp: number, now: number = Date.now()): string => {
  const diff = Math.max(0, now - timestamp);
  if (diff < MINUTE) return 'now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`;
  if (diff < 30 * DAY) return `${Math.floor(diff / DAY)}d`;
  return `${Math.floor(diff / (30 * DAY))}mo`;
};
