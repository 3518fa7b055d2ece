import { type AppError, fromHttpFailure, fromThrown } from '@switchboard/core';
import { toast } from './toast';

export const AUTH_ERROR_EVENT = 'auth:error';
/** A messaging window closed (SESSION_EXPIRED): always the shared error dialog, never a toast. */
export const SESSION_EXPIRED_EVENT = 'messaging:session-expired';

let currentSubaccountId: string | null = null;
/** The sub-account that workspace-level calls act in, sent as X-Subaccount-Id. */
export const setCurrentSubaccountId = (id: string | null) => {
  currentSubaccountId = id;
};
export const getCurrentSubaccountId = () => currentSubaccountId;

export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly field?: string;
  readonly reason?: string;
  readonly supportId?: string;
  readonly appError: AppError;
  /** The parsed answer, for calls whose failures carry more than the envelope (a 429's counts). */
  readonly body?: unknown;

  constructor(status: number, appError: AppError, extra: { field?: string; reason?: string; body?: unknown } = {}) {
    super(appError.message);
    this.name = 'ApiError';
    this.status = status;
    this.appError = appError;
    this.code = appError.code;
    this.supportId = appError.supportId;
    this.field = extra.field;
    this.reason = extra.reason;
    this.body = extra.body;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** The caller shows the failure itself: no global toast. */
  silent?: boolean;
}

const isAccessCheck = (path: string) => path.includes('/check-access');

/** The global handling of failed calls (spec/evaluation.md 8.2). */
const announce = (path: string, error: ApiError) => {
  if (error.status === 401) {
    if (!isAccessCheck(path)) {
      window.dispatchEvent(new CustomEvent(AUTH_ERROR_EVENT));
      toast.error('Please sign in to continue');
    }
    return;
  }
  if (error.status === 402) {
    toast.error(error.reason || error.message || 'Insufficient credits. Please add more to continue.');
    return;
  }
  if (error.status === 403 && (!error.code || error.code.startsWith('BILLING_'))) {
    toast.error('Pick a plan to use this feature');
    return;
  }
  if (error.message === 'Template not found' || isAccessCheck(path)) return;
  toast.error(error.message || 'something went wrong...');
};

/** Calls the API with the session cookie; throws ApiError with the parsed app error on failure. */
export const api = async <T>(path: string, options: ApiOptions = {}): Promise<T> => {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (currentSubaccountId && !headers['x-subaccount-id']) headers['x-subaccount-id'] = currentSubaccountId;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (thrown) {
    if (thrown instanceof DOMException && thrown.name === 'AbortError') throw thrown;
    const error = new ApiError(0, fromThrown(thrown));
    if (!options.silent) toast.error(error.message);
    throw error;
  }
  const text = await response.text();
  if (!response.ok) {
    let extra: { field?: string; reason?: string; body?: unknown } = {};
    try {
      const parsed = JSON.parse(text) as { error?: { field?: string; reason?: string } };
      extra = { field: parsed.error?.field, reason: parsed.error?.reason, body: parsed };
    } catch {
      extra = {};
    }
    const error = new ApiError(response.status, fromHttpFailure(response.status, text), extra);
    if (error.code === 'SESSION_EXPIRED')
      window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail: error }));
    else if (!options.silent) announce(path, error);
    throw error;
  }
  return (text ? JSON.parse(text) : undefined) as T;
};
