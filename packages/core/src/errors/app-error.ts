import { ERROR_CODES, type ErrorAction, isErrorCode } from './catalogue';

/** App error types of the shared error dialog (spec/evaluation.md 8.3 and 8.4). */
export type AppErrorType =
  | 'quota_exceeded'
  | 'invalid_api_key'
  | 'rate_limit'
  | 'network_error'
  | 'timeout'
  | 'no_api_key'
  | 'model_error'
  | 'config_error'
  | 'validation_error'
  | 'permission_error'
  | 'server_code'
  | 'unknown';

export interface AppError {
  type: AppErrorType;
  message: string;
  advice: string;
  tip?: string;
  context?: string;
  supportId?: string;
  code?: string;
  actions: string[];
  originalError?: unknown;
}

export const DEFAULT_ADVICE = 'Please try again or contact support if the issue persists.';

export const ERROR_DIALOG_TITLES: Record<AppErrorType, string> = {
  quota_exceeded: 'Quota Exceeded',
  invalid_api_key: 'Invalid API Key',
  rate_limit: 'Rate Limit Exceeded',
  network_error: 'Connection Error',
  timeout: 'Request Timeout',
  no_api_key: 'API Key Required',
  model_error: 'AI Model Unavailable',
  config_error: 'Configuration Error',
  validation_error: 'Invalid Input',
  permission_error: 'Permission Denied',
  server_code: 'Error Occurred',
  unknown: 'Error Occurred',
};

/** Titles for server codes of the router billing, not found, messaging and rate-limit families. */
const CODE_TITLES: Partial<Record<string, string>> = {
  BILLING_PAYMENT_FAILED: 'Payment Failed',
  BILLING_INSUFFICIENT_CREDITS: 'Insufficient Credits',
  BILLING_ACTIVE_SUBSCRIPTION_REQUIRED: 'Subscription Required',
  BILLING_SUBSCRIPTION_NOT_FOUND: 'Subscription Required',
  NOT_FOUND: 'Not Found',
  UNAUTHORIZED: 'Sign-in Required',
  COMPOSIO_AUTH_REQUIRED: 'Integration Authorization Required',
  RATE_LIMIT_EXCEEDED: 'Rate Limit Exceeded',
  TWILIO_AUTH_FAILED: 'Messaging Authentication Failed',
  MESSAGE_SEND_FAILED: 'Message Not Sent',
  MESSAGE_INVALID_NUMBER: 'Invalid Phone Number',
  CAMPAIGN_NOT_FOUND: 'Campaign Not Found',
  CONTACT_NOT_FOUND: 'Contact Not Found',
  SESSION_EXPIRED: 'Messaging Window Closed',
  META_AUTH_FAILED: 'Instagram Authentication Failed',
  CAMPAIGN_ALREADY_COMPLETED: 'Campaign Already Completed',
  VALIDATION_ERROR: 'Invalid Input',
  FORBIDDEN: 'Permission Denied',
};

/** Error types whose dialog offers a retry (8.4). */
const RETRY_TYPES = new Set<AppErrorType>(['rate_limit', 'network_error', 'timeout', 'model_error', 'unknown']);

/** The title by error type (8.4) when the type is known, else by server code, else 'Error Occurred'. */
export const dialogTitle = (error: AppError): string =>
  error.type !== 'server_code' && error.type !== 'unknown'
    ? ERROR_DIALOG_TITLES[error.type]
    : (error.code && CODE_TITLES[error.code]) || ERROR_DIALOG_TITLES[error.type];

export const dialogActions = (error: AppError): string[] => {
  if (error.actions.length > 0) return error.actions;
  if (error.type === 'no_api_key' || error.type === 'invalid_api_key') return ['Settings'];
  if (RETRY_TYPES.has(error.type)) return ['Retry'];
  return [];
};

const make = (
  type: AppErrorType,
  message: string,
  advice = DEFAULT_ADVICE,
  extra: Partial<AppError> = {},
): AppError => ({ type, message, advice, actions: [], ...extra });

interface ProviderErrorBody {
  error?: { code?: unknown; type?: unknown; message?: unknown; support_id?: unknown; reason?: unknown } | string;
  message?: unknown;
  details?: unknown;
}

/** Provider error codes mapped to app errors (8.3). */
export const fromProviderCode = (code: string, providerMessage?: string): AppError => {
  switch (code) {
    case 'insufficient_quota':
      return make(
        'quota_exceeded',
        'You exceeded your current quota, please check your plan and billing details.',
        'Add credits to your provider account or upgrade your plan.',
      );
    case 'invalid_api_key':
      return make(
        'invalid_api_key',
        'Your API key is invalid or has been revoked.',
        'Check your API key and update it in Settings.',
      );
    case 'rate_limit_exceeded':
      return make(
        'rate_limit',
        'Rate limit exceeded. Too many requests in a short period.',
        'Wait a moment before trying again.',
      );
    case 'model_not_found':
      return make(
        'model_error',
        'The requested AI model is not available.',
        'Try again in a few minutes or choose another model.',
      );
    default:
      return make('unknown', providerMessage || 'An error occurred with the OpenAI service.');
  }
};

/** Message-based rules of 8.3, applied to a thrown error's text. */
export const fromMessage = (message: string, original?: unknown): AppError | undefined => {
  const lower = message.toLowerCase();
  if (lower.includes('timeout') || lower.includes('timed out'))
    return make('timeout', 'The request timed out.', DEFAULT_ADVICE, { originalError: original });
  if (message.includes('Encryption key not configured'))
    return make('config_error', 'System configuration error.', DEFAULT_ADVICE, { originalError: original });
  if (message.includes('No API Key set'))
    return make('no_api_key', 'No OpenAI API key found.', 'Set up your API key in Settings.', {
      originalError: original,
    });
  if (message.includes('Unauthorized'))
    return make('permission_error', "You don't have permission to perform this action.", DEFAULT_ADVICE, {
      originalError: original,
    });
  if (lower.includes('validation'))
    return make('validation_error', 'Invalid input data provided.', DEFAULT_ADVICE, { originalError: original });
  if (message.includes('Azure') || lower.includes('backend'))
    return make('config_error', 'Backend service temporarily unavailable.', DEFAULT_ADVICE, {
      originalError: original,
    });
  if (message.includes('MongoDB') || message.includes('Database'))
    return make('config_error', 'Database connection error.', DEFAULT_ADVICE, { originalError: original });
  return undefined;
};

/** The advice of 8.3 by error type. */
const ADVICE_BY_TYPE: Partial<Record<AppErrorType, string>> = {
  quota_exceeded: 'Add credits to your provider account or upgrade your plan.',
  invalid_api_key: 'Check your API key and update it in Settings.',
  rate_limit: 'Wait a moment before trying again.',
  model_error: 'Try again in a few minutes or choose another model.',
  no_api_key: 'Set up your API key in Settings.',
};

const REASON_TYPES = new Set<string>([
  'quota_exceeded',
  'invalid_api_key',
  'rate_limit',
  'network_error',
  'timeout',
  'no_api_key',
  'model_error',
  'config_error',
  'validation_error',
  'permission_error',
]);

/**
 * An app error from the server's reason (the error type the server found, 8.3), keeping the
 * server's code, message, reference and the code's actions; undefined for an unknown reason.
 */
export const fromServerReason = (
  reason: string,
  code: string,
  message: string,
  supportId?: string,
): AppError | undefined => {
  if (!REASON_TYPES.has(reason)) return undefined;
  const type = reason as AppErrorType;
  const known = isErrorCode(code) ? ERROR_CODES[code] : undefined;
  return make(type, message, ADVICE_BY_TYPE[type] ?? DEFAULT_ADVICE, {
    code,
    supportId,
    actions: known ? [...(known.actions as ErrorAction[])] : [],
  });
};

/** Turns a server error envelope into an app error with the catalogue's advice and actions. */
export const fromServerCode = (code: string, message: string, supportId?: string): AppError => {
  const known = isErrorCode(code) ? ERROR_CODES[code] : ERROR_CODES.INTERNAL_SERVER_ERROR;
  return make('server_code', message || 'An error occurred', known.advice, {
    code,
    supportId,
    actions: [...(known.actions as ErrorAction[])],
  });
};

/** Parses a failed HTTP answer (status plus body text) into an app error (8.3). */
export const fromHttpFailure = (status: number, bodyText: string): AppError => {
  let body: ProviderErrorBody | undefined;
  try {
    body = JSON.parse(bodyText) as ProviderErrorBody;
  } catch {
    body = undefined;
  }
  const err = body?.error;
  if (err && typeof err === 'object') {
    const code = typeof err.code === 'string' ? err.code : undefined;
    const message = typeof err.message === 'string' ? err.message : '';
    const supportId = typeof err.support_id === 'string' ? err.support_id : undefined;
    const reason = typeof err.reason === 'string' ? err.reason : undefined;
    if (code && /^[A-Z][A-Z0-9_]+$/.test(code)) {
      return (reason && fromServerReason(reason, code, message, supportId)) || fromServerCode(code, message, supportId);
    }
    if (code) return fromProviderCode(code, message);
    const byMessage = message ? fromMessage(message) : undefined;
    if (byMessage) return byMessage;
  }
  const text = typeof err === 'string' ? err : typeof body?.message === 'string' ? body.message : undefined;
  if (text) return fromMessage(text) ?? make('unknown', text);
  if (status === 503) return make('config_error', 'Service temporarily unavailable (503)', 'Please retry shortly.');
  if (status >= 500 && status <= 502) return make('config_error', 'Server error occurred', 'Please retry shortly.');
  return make('unknown', `Request failed with status ${status}`);
};

/** Parses anything thrown by a fetch (8.3): a TypeError is a network failure. */
export const fromThrown = (thrown: unknown): AppError => {
  if (thrown instanceof TypeError)
    return make('network_error', 'Unable to connect to the service.', DEFAULT_ADVICE, { originalError: thrown });
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return fromMessage(message, thrown) ?? make('unknown', message || 'something went wrong...', DEFAULT_ADVICE);
};
