import { INVALID_NUMBER_MESSAGE } from '@switchboard/core';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import { AppError } from '../../platform/errors';

/**
 * A phone number in E.164 (+15555555555), or null. Numbers written without a country code are read
 * in `defaultCountry`. Numbers of a possible length are accepted, so the fictional 555 numbers of
 * examples and tests pass; carriers refuse what does not exist (Twilio's 21211), recorded per send.
 */
export const toE164 = (raw: string, defaultCountry = 'US'): string | null => {
  const text = raw.trim();
  if (!text || text.length > 40 || !/^[+\d\s().\-/]+$/.test(text)) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry as CountryCode);
  if (!parsed?.isPossible()) return null;
  return parsed.number;
};

export const requireE164 = (raw: string, field: string, defaultCountry = 'US'): string => {
  const phone = toE164(raw, defaultCountry);
  if (!phone) throw new AppError('MESSAGE_INVALID_NUMBER', INVALID_NUMBER_MESSAGE, { field });
  return phone;
};
