import { fromHttpFailure } from '@switchboard/core';
import { ApiError } from '../../lib/api';

/** Sends a file (multipart, field `file`) with text fields; the server reads and checks it. */
export const uploadFile = async <T>(path: string, file: File, fields: Record<string, string> = {}): Promise<T> => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', file);
  const response = await fetch(path, { method: 'POST', body: form, credentials: 'include' });
  const text = await response.text();
  if (!response.ok) {
    let field: string | undefined;
    try {
      field = (JSON.parse(text) as { error?: { field?: string } }).error?.field;
    } catch {
      field = undefined;
    }
    throw new ApiError(response.status, fromHttpFailure(response.status, text), { field });
  }
  return JSON.parse(text) as T;
};
