import { describe, expect, it } from 'vitest';
import { DEFAULT_ADVICE, dialogActions, dialogTitle, fromHttpFailure, fromProviderCode, fromThrown } from './app-error';
import { formatSupportReference } from './envelope';

describe('error parsing (spec/evaluation.md 8.3 and 8.4)', () => {
  it('maps provider codes to app errors with their messages', () => {
    expect(fromProviderCode('insufficient_quota')).toMatchObject({
      type: 'quota_exceeded',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    });
    expect(fromProviderCode('invalid_api_key').message).toBe('Your API key is invalid or has been revoked.');
    expect(fromProviderCode('rate_limit_exceeded').message).toBe(
      'Rate limit exceeded. Too many requests in a short period.',
    );
    expect(fromProviderCode('model_not_found').message).toBe('The requested AI model is not available.');
    expect(fromProviderCode('weird').message).toBe('An error occurred with the OpenAI service.');
  });

  it.each([
    [
      'invalid_api_key',
      'API_KEY_INVALID',
      'Invalid API Key',
      'Check your API key and update it in Settings.',
      ['Update API Key'],
    ],
    [
      'quota_exceeded',
      'AI_SERVICE_ERROR',
      'Quota Exceeded',
      'Add credits to your provider account or upgrade your plan.',
      ['Retry'],
    ],
    ['rate_limit', 'RATE_LIMIT_EXCEEDED', 'Rate Limit Exceeded', 'Wait a moment before trying again.', []],
    ['no_api_key', 'API_KEY_NOT_FOUND', 'API Key Required', 'Set up your API key in Settings.', ['Add API Key']],
    [
      'model_error',
      'AI_SERVICE_ERROR',
      'AI Model Unavailable',
      'Try again in a few minutes or choose another model.',
      ['Retry'],
    ],
    ['timeout', 'AI_SERVICE_TIMEOUT', 'Request Timeout', DEFAULT_ADVICE, ['Retry']],
  ])('titles a server error by its reason %s', (reason, code, title, advice, actions) => {
    const error = fromHttpFailure(
      422,
      JSON.stringify({ error: { code, message: 'From the server', support_id: 'cd'.repeat(16), reason } }),
    );
    expect(error).toMatchObject({ type: reason, code, message: 'From the server', advice });
    expect(dialogTitle(error)).toBe(title);
    expect(dialogActions(error)).toEqual(actions.length ? actions : dialogActions({ ...error, actions: [] }));
  });

  it('reads the server envelope with its catalogue advice and actions', () => {
    const error = fromHttpFailure(
      402,
      JSON.stringify({
        error: { code: 'BILLING_INSUFFICIENT_CREDITS', message: 'No credits', support_id: 'ab'.repeat(16) },
      }),
    );
    expect(error.actions).toEqual(['Upgrade Plan', 'View Billing']);
    expect(dialogTitle(error)).toBe('Insufficient Credits');
    expect(formatSupportReference(error.supportId ?? '')).toBe('AB'.repeat(16));
  });

  it('falls back by status and by message', () => {
    expect(fromHttpFailure(503, 'oops').message).toBe('Service temporarily unavailable (503)');
    expect(fromHttpFailure(500, '<html>').message).toBe('Server error occurred');
    expect(fromHttpFailure(418, '<html>').message).toBe('Request failed with status 418');
    expect(fromThrown(new TypeError('Failed to fetch'))).toMatchObject({
      type: 'network_error',
      message: 'Unable to connect to the service.',
    });
    expect(fromThrown(new Error('Request timeout after 30s')).message).toBe('The request timed out.');
    expect(fromThrown(new Error('No API Key set')).type).toBe('no_api_key');
    expect(fromThrown(new Error('Database went away')).message).toBe('Database connection error.');
    expect(fromThrown(new Error('odd')).advice).toBe(DEFAULT_ADVICE);
  });

  it('offers retry for transient errors and settings for key problems', () => {
    expect(dialogActions(fromProviderCode('rate_limit_exceeded'))).toEqual(['Retry']);
    expect(dialogActions(fromProviderCode('invalid_api_key'))).toEqual(['Settings']);
  });
});
