import { z } from 'zod';

const MESSAGE = 'Enter a web address starting with http:// or https://';

/**
 * A user-given http(s) address. The scheme is matched by a plain character-class pattern (not the
 * `i` flag or a refine alone), so property tests can generate values for it.
 */
export const zWebAddress = (maxLength = 2000) =>
  z
    .string()
    .trim()
    .max(maxLength, { error: `Use at most ${maxLength.toLocaleString('en-US')} characters` })
    .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/\S+$/, { error: MESSAGE })
    .refine((value) => URL.canParse(value), { error: MESSAGE });
