import { MEDIA_MAX_BYTES, MEDIA_TYPES, type TChannelMedia } from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newToken } from '../../platform/ids';
import { policyOf, safeFetch } from '../../platform/outbound';
import { channelMedia } from './schema';

const failed = (message: string, field: string) => new AppError('MEDIA_UPLOAD_FAILED', message, { field });

/**
 * Checks a media URL before a campaign may send it: reachable on the public internet (the outbound
 * rules), an image or a PDF, at most 5 MB (Twilio fetches the file itself when it sends).
 */
export const checkMedia = async (deps: Deps, url: string, field: string): Promise<void> => {
  // A file uploaded here is checked when it was stored; it is served from this server's own address.
  const own = ownMediaId(deps, url);
  if (own) {
    const [row] = await deps.db
      .select({ id: channelMedia.id })
      .from(channelMedia)
      .where(eq(channelMedia.id, own))
      .limit(1);
    if (!row) throw failed('The uploaded file no longer exists. Upload it again.', field);
    return;
  }
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

type MediaType = (typeof MEDIA_TYPES)[number];

/** The type of a file by its first bytes (never by the name or the browser's word for it). */
export const sniffMediaType = (data: Buffer): MediaType | null => {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'image/gif';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
};

const MEDIA_PATH = '/api/media/';
const mediaUrlOf = (deps: Deps, id: string) => `${deps.publicUrl}${MEDIA_PATH}${id}`;

/** The id of a file this server serves, when the URL is one of its own media addresses. */
const ownMediaId = (deps: Deps, url: string): string | null => {
  const prefix = `${deps.publicUrl}${MEDIA_PATH}`;
  if (!url.startsWith(prefix)) return null;
  const id = url.slice(prefix.length);
  return /^med_[A-Za-z0-9_-]{20,64}$/.test(id) ? id : null;
};

/** Stores an uploaded image or PDF for a connection's messages (MEDIA_UPLOAD_FAILED when it cannot be sent). */
export const storeMedia = async (
  deps: Deps,
  input: { subaccountId: string; connectionId: string; fileName: string; data: Buffer; truncated: boolean },
): Promise<TChannelMedia> => {
  if (input.truncated || input.data.length > MEDIA_MAX_BYTES)
    throw failed(`The file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`, 'file');
  if (input.data.length === 0) throw failed('The file is empty.', 'file');
  const contentType = sniffMediaType(input.data);
  if (!contentType) throw failed('Send an image (JPEG, PNG, GIF or WebP) or a PDF.', 'file');
  // An unguessable id: the address is public so that Twilio and Meta can fetch the file.
  const id = `med_${newToken(24)}`;
  const fileName = input.fileName.replace(/[^\w .()-]/g, '_').slice(0, 120) || 'file';
  await deps.db.insert(channelMedia).values({
    id,
    subaccountId: input.subaccountId,
    connectionId: input.connectionId,
    fileName,
    contentType,
    size: input.data.length,
    data: input.data,
  });
  return { mediaId: id, url: mediaUrlOf(deps, id), fileName, contentType, size: input.data.length };
};

export const readMedia = async (deps: Deps, id: string) => {
  const [row] = await deps.db
    .select()
    .from(channelMedia)
    .where(and(eq(channelMedia.id, id)))
    .limit(1);
  return row ?? null;
};
