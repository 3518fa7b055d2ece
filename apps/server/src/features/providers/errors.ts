import { APICallError } from '@ai-sdk/provider';
import { AppError } from '../../platform/errors';

/**
 * Provider failures as app errors (spec/evaluation.md 8.3). The `reason` is the error type the
 * error dialog titles by. Provider authentication failures answer 502, not 401: a 401 would sign
 * the user out of Switchboard although only the provider refused the key.
 */

const providerCode = (error: APICallError): string | undefined => {
  const data = error.data as { error?: { code?: unknown; type?: unknown } } | undefined;
  const fromData = data?.error?.code ?? data?.error?.type;
  if (typeof fromData === 'string') return fromData;
  try {
    const body = JSON.parse(error.responseBody ?? '{}') as { error?: { code?: unknown; type?: unknown } };
    const code = body.error?.code ?? body.error?.type;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
};

const providerMessage = (error: APICallError): string | undefined => {
  try {
    const body = JSON.parse(error.responseBody ?? '{}') as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
};

const findCause = (error: unknown): unknown => {
  let current = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (APICallError.isInstance(current)) return current;
    const next =
      (current as { lastError?: unknown; cause?: unknown }).lastError ?? (current as { cause?: unknown }).cause;
    if (!next) break;
    current = next;
  }
  return current;
};

export const mapProviderError = (thrown: unknown): AppError => {
  if (thrown instanceof AppError) return thrown;
  const error = findCause(thrown);
  if (error instanceof AppError) return error;
  if (APICallError.isInstance(error)) {
    const code = providerCode(error);
    const status = error.statusCode ?? 0;
    if (!status && !error.responseBody) {
      const cause = error.cause instanceof Error ? `${error.cause.name} ${error.cause.message}` : '';
      if (/timeout|aborted/i.test(`${error.message} ${cause}`)) {
        return new AppError('AI_SERVICE_TIMEOUT', 'The request timed out.', { reason: 'timeout' });
      }
      return new AppError('AI_SERVICE_ERROR', 'Unable to connect to the service.', {
        reason: 'network_error',
        status: 502,
      });
    }
    if (code === 'insufficient_quota') {
      return new AppError(
        'AI_SERVICE_ERROR',
        'You exceeded your current quota, please check your plan and billing details.',
        { reason: 'quota_exceeded', status: 502 },
      );
    }
    if (code === 'invalid_api_key' || code === 'authentication_error' || status === 401) {
      return new AppError('API_KEY_INVALID', 'Your API key is invalid or has been revoked.', {
        reason: 'invalid_api_key',
        status: 502,
      });
    }
    if (code === 'rate_limit_exceeded' || code === 'rate_limit_error' || status === 429) {
      return new AppError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded. Too many requests in a short period.', {
        reason: 'rate_limit',
      });
    }
    if (code === 'model_not_found' || code === 'not_found_error' || status === 404) {
      return new AppError('AI_SERVICE_ERROR', 'The requested AI model is not available.', {
        reason: 'model_error',
        status: 502,
      });
    }
    if (status >= 500 && status <= 503) {
      const message = status === 503 ? 'Service temporarily unavailable (503)' : 'Server error occurred';
      return new AppError('AI_SERVICE_ERROR', message, { reason: 'config_error', status: 502 });
    }
    const message = providerMessage(error);
    if (message || code) {
      return new AppError('OPENAI_API_ERROR', message ?? 'An error occurred with the OpenAI service.', {
        reason: code,
      });
    }
    return new AppError('OPENAI_API_ERROR', `Request failed with status ${status}`);
  }
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  if (/timeout|timed out|aborterror/i.test(text)) {
    return new AppError('AI_SERVICE_TIMEOUT', 'The request timed out.', { reason: 'timeout' });
  }
  if (error instanceof TypeError || /fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|socket hang up/i.test(text)) {
    return new AppError('AI_SERVICE_ERROR', 'Unable to connect to the service.', {
      reason: 'network_error',
      status: 502,
    });
  }
  if (/Encryption key not configured/i.test(text)) {
    return new AppError('SERVER_CONFIG_ERROR', 'System configuration error.', { reason: 'config_error' });
  }
  return new AppError('AI_SERVICE_ERROR', 'An error occurred with the OpenAI service.', { status: 502 });
};
