import { MEDIA_MAX_BYTES, MEDIA_TYPES } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { policyOf, safeFetch } from '../../platform/outbound';

const failed = (message: string, field: string) => new AppError('MEDIA_UPLOAD_FAILED', message, { field });

/**
 * Checks a media URL before a campaign may send it: reachable on the public internet (the outbound
 * rules), an image or a PDF, at most 5 MB (Twilio fetches the file itself when it sends).
 */
export const checkMedia = async (deps: Deps, url: string, field: string): Promise<void> => {
  let result: Awaited<ReturnType<typeof safeFetch>>;
  try {
    result = await safeFetch(url, policyOf(deps.env), { method: 'HEAD', maxBytes: 0, field, timeoutMs: 5000 });
  } catch (error) {
    throw failed(
      error instanceof AppError ? error.message : 'The file could not be reached. Check the address.',
      field,
    );
  }
  if (result.status >= 400) throw failed(`The file could not be fetched (HTTP ${result.status}).`, field);
  const type = String(result.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (!type || !(MEDIA_TYPES as readonly string[]).includes(type))
    throw failed(
      `Send an image (JPEG, PNG, GIF or WebP) or a PDF; this file is ${type || 'of an unknown type'}.`,
      field,
    );
  const size = Number(result.headers['content-length'] ?? 0);
  if (size > MEDIA_MAX_BYTES) throw failed(`The file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`, field);
};
