/**
 * Pure messaging rules shared by the server and the web app: carrier keywords, SMS encoding and
 * parts, template variables and quiet hours.
 */

/** Keywords carriers require (CTIA, Twilio's default opt-out handling), matched on the whole trimmed message. */
const OPT_OUT = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'];
const OPT_IN = ['START', 'YES', 'UNSTOP'];
const HELP = ['HELP', 'INFO'];

export type Keyword = 'opt_out' | 'opt_in' | 'help';

export const keywordOf = (body: string): Keyword | null => {
  const word = body
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  if (OPT_OUT.includes(word)) return 'opt_out';
  if (OPT_IN.includes(word)) return 'opt_in';
  if (HELP.includes(word)) return 'help';
  return null;
};

export const KEYWORD_REPLIES = {
  opt_out: 'You have been unsubscribed and will receive no more messages. Reply START to resubscribe.',
  opt_in: 'You have been resubscribed. Reply STOP to unsubscribe.',
  help: (company: string) => `${company}: reply STOP to unsubscribe. Message and data rates may apply.`,
} as const;

// The GSM 03.38 basic set and its extension table (an extension character takes two places).
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

export interface SmsEncoding {
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters counted as the carrier counts them (GSM extension characters are two). */
  units: number;
  segments: number;
}

/** The encoding and the number of billed segments of an SMS body. */
export const smsEncoding = (body: string): SmsEncoding => {
  let units = 0;
  let gsm = true;
  for (const char of body) {
    if (GSM_BASIC.includes(char)) units += 1;
    else if (GSM_EXTENDED.includes(char)) units += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (!gsm) {
    // UCS-2 counts UTF-16 code units: an emoji is two.
    units = body.length;
    return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
  }
  return { encoding: 'GSM-7', units, segments: units <= 160 ? 1 : Math.ceil(units / 153) };
};

/** Longest part an agent's answer is split into: two concatenated segments. */
export const SMS_PART_LIMIT = { 'GSM-7': 306, 'UCS-2': 134 } as const;
/** WhatsApp takes up to 4096 characters in one message. */
export const WHATSAPP_PART_LIMIT = 4096;
/** Instagram's limit of one text message (Messenger Platform for Instagram). */
export const INSTAGRAM_PART_LIMIT = 1000;

/**
 * Splits a long answer into parts that each fit `limit` characters, at the end of a sentence where
 * possible, else at a space, else hard. Short text comes back as one part.
 */
export const splitMessage = (text: string, limit: number): string[] => {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = Math.max(
      window.lastIndexOf('. '),
      window.lastIndexOf('! '),
      window.lastIndexOf('? '),
      window.lastIndexOf('\n'),
    );
    if (cut >= limit / 3) cut += 1;
    else {
      cut = window.lastIndexOf(' ');
      if (cut < limit / 3) cut = limit;
    }
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
};

/** Splits an agent's SMS answer into SMS-sized parts (by its encoding). */
export const splitSms = (text: string): string[] => splitMessage(text, SMS_PART_LIMIT[smsEncoding(text).encoding]);

/** Splits an answer into the parts a channel takes (SMS by its encoding, WhatsApp and Instagram by their size). */
export const splitForChannel = (type: 'sms' | 'whatsapp' | 'instagram', text: string): string[] =>
  type === 'whatsapp'
    ? splitMessage(text, WHATSAPP_PART_LIMIT)
    : type === 'instagram'
      ? splitMessage(text, INSTAGRAM_PART_LIMIT)
      : splitSms(text);

/**
 * The most messages one reply from the inbox goes out as: beyond that a contact gets a wall of
 * texts (and on SMS pays for them), so the reply is refused and the person shortens it.
 */
export const REPLY_PART_CAP = { sms: 10, whatsapp: 2, instagram: 5 } as const;

/** Why a reply is too long to send on the channel, or null when it fits. */
export const replyTooLong = (type: 'sms' | 'whatsapp' | 'instagram', text: string): string | null => {
  const parts = splitForChannel(type, text).length;
  const cap = REPLY_PART_CAP[type];
  if (parts <= cap) return null;
  const name = type === 'sms' ? 'SMS' : type === 'whatsapp' ? 'WhatsApp' : 'Instagram';
  return `Too long to send on ${name}: it would go out as ${parts} messages, at most ${cap}. Shorten the reply.`;
};

/**
 * Provider error codes that mean a number cannot get messages (from this sender, or at all): a send
 * failing with one puts the number on the sub-account's suppression list, so later campaigns skip
 * it instead of paying for the same failure again. `every`: the number itself is unusable (every
 * sender); otherwise only the sender that failed.
 */
export const PERMANENT_FAILURES: Record<string, { reason: string; every: boolean }> = {
  '21211': { reason: 'Not a valid phone number', every: true },
  '21614': { reason: 'Not a mobile number (cannot receive SMS)', every: true },
  '21610': { reason: 'The number unsubscribed from this sender at the carrier (STOP)', every: false },
  '30005': { reason: 'Unknown or inactive number', every: true },
  '30006': { reason: 'Landline or unreachable carrier', every: true },
  '63016': { reason: 'WhatsApp refused a free-form message outside the 24-hour window', every: false },
  '63024': { reason: 'Not a WhatsApp number', every: false },
};

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,39})\s*\}\}/g;

/** The variable names a message template uses, in order of first use: `Hi {{first_name}}`. */
export const templateVariables = (template: string): string[] => {
  const names: string[] = [];
  for (const match of template.matchAll(VARIABLE)) {
    const name = match[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
};

/** Fills a template; answers the names that have no value (or an empty one) instead of sending "Hi ". */
export const renderTemplate = (
  template: string,
  values: Record<string, string | null | undefined>,
): { text: string; missing: string[] } => {
  const missing: string[] = [];
  const text = template.replace(VARIABLE, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value.trim() === '') {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return value;
  });
  return { text, missing };
};

/** Minutes since midnight of a date in a time zone. */
export const localMinutes = (at: Date, timeZone: string): number => {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, part) => {
      acc[part.type] = part.value;
      return acc;
    }, {});
  return Number(parts.hour) * 60 + Number(parts.minute);
};

/** "21:00" → 1260 */
export const clockMinutes = (clock: string): number => {
  const [h = '0', m = '0'] = clock.split(':');
  return Number(h) * 60 + Number(m);
};

/**
 * When a message may go out to a contact in `timeZone` given quiet hours (`start` to `end`, local
 * clock, possibly over midnight): `at` itself when outside them, else the end of the quiet hours.
 */
export const nextSendTime = (at: Date, timeZone: string, quiet: { start: string; end: string } | null): Date => {
  if (!quiet) return at;
  const start = clockMinutes(quiet.start);
  const end = clockMinutes(quiet.end);
  if (start === end) return at;
  const now = localMinutes(at, timeZone);
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return at;
  const wait = (end - now + 1440) % 1440;
  const next = new Date(at.getTime() + wait * 60_000);
  next.setUTCSeconds(0, 0);
  return next;
};

/** Whether an IANA time zone name is known to this runtime. */
export const isTimeZone = (value: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** The offset of a time zone from UTC at an instant, in minutes. */
const zoneOffsetMinutes = (at: Date, timeZone: string): number => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
    .formatToParts(at)
    .reduce<Record<string, number>>((acc, part) => {
      if (part.type !== 'literal') acc[part.type] = Number(part.value);
      return acc;
    }, {});
  const asUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - at.getTime()) / 60_000);
};

/** "2026-05-01T09:00" in `timeZone` → the instant. */
export const zonedLocalToUtc = (local: string, timeZone: string): Date => {
  const [date = '', time = '00:00'] = local.split('T');
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  const [h = 0, min = 0] = time.split(':').map(Number);
  const guess = Date.UTC(y, m - 1, d, h, min);
  const first = guess - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess - zoneOffsetMinutes(new Date(first), timeZone) * 60_000);
};
