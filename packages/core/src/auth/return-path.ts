/**
 * Return paths (callbackURL, callbackUrl, returnUrl, the billing portal's return) stay on this
 * site: a path beginning with a single `/`, with no backslash and no control character anywhere
 * (browsers drop tabs and newlines and read `\` as `/`, so `/\t/evil.example` and `/\evil` would
 * leave the site). Anything else falls back to the default landing.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const UNSAFE_CHARACTER = /[\\\u0000-\u001f\u007f]/;

export const isSafeReturnPath = (value: string): boolean =>
  value.startsWith('/') && !value.startsWith('//') && !UNSAFE_CHARACTER.test(value);

/** The value when it is a safe return path, else the fallback. */
export const safeReturnPath = (value: string | null | undefined, fallback: string): string =>
  typeof value === 'string' && isSafeReturnPath(value) ? value : fallback;

/**
 * A safe return path, also from an absolute URL of this very origin (written by an older page or
 * an operator's setting); another origin, scheme or a malformed value gives the fallback.
 */
export const returnPathOn = (value: string | null | undefined, origin: string, fallback: string): string => {
  if (typeof value !== 'string' || !value) return fallback;
  if (isSafeReturnPath(value)) return value;
  if (UNSAFE_CHARACTER.test(value)) return fallback;
  try {
    const url = new URL(value);
    if (url.origin !== new URL(origin).origin) return fallback;
    return safeReturnPath(`${url.pathname}${url.search}${url.hash}`, fallback);
  } catch {
    return fallback;
  }
};
