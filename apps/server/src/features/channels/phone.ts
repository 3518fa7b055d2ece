import { INVALID_NUMBER_MESSAGE } from '@switchboard/core';
import type * as PhoneNumbers from 'libphonenumber-js';
import { AppError } from '../../platform/errors';
import { onFirstUse } from '../../platform/on-first-use';

/** libphonenumber-js and its numbering plans: loaded by the first number read. */
const phoneNumbers = onFirstUse<typeof PhoneNumbers>('libphonenumber-js');

/**
 * A phone number in E.164 (+15555555555), or null. Numbers written without a country code are read
 * in `defaultCountry`. Numbers of a possible length are accepted, so the fictional 555 numbers of
 * examples and tests pass; carriers refuse what does not exist (Twilio's 21211), recorded per send.
 */
export const toE164 = (raw: string, defaultCountry = 'US'): string | null => {
  const text = raw.trim();
  if (!text || text.length > 40 || !/^[+\d\s().\-/]+$/.test(text)) return null;
  const parsed = phoneNumbers().parsePhoneNumberFromString(text, defaultCountry as PhoneNumbers.CountryCode);
  if (!parsed?.isPossible()) return null;
  return parsed.number;
};

export const requireE164 = (raw: string, field: string, defaultCountry = 'US'): string => {
  const phone = toE164(raw, defaultCountry);
  if (!phone) throw new AppError('MESSAGE_INVALID_NUMBER', INVALID_NUMBER_MESSAGE, { field });
  return phone;
};
