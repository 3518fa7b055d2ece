/**
 * The server error-code catalogue (spec/evaluation.md 8.5): every `error.code` the API can answer
 * with, its HTTP status, the advice shown in the error dialog and the dialog's action buttons.
 */
export type ErrorAction =
  | 'Log In'
  | 'Update Payment Method'
  | 'Contact Support'
  | 'View Plans'
  | 'Upgrade Plan'
  | 'View Billing'
  | 'Retry'
  | 'Reconnect App'
  | 'Connect Account'
  | 'Update Credentials'
  | 'Reconnect'
  | 'Create New Campaign'
  | 'View Builds'
  | 'Activate Connection'
  | 'Add API Key'
  | 'Update API Key'
  | 'Configure API Key'
  | 'Reconfigure'
  | 'Check Configuration';

export interface ErrorCodeEntry {
  status: number;
  advice: string;
  actions: ErrorAction[];
}

const entry = (status: number, advice: string, actions: ErrorAction[] = []): ErrorCodeEntry => ({
  status,
  advice,
  actions,
});

export const ERROR_CODES = {
  INTERNAL_SERVER_ERROR: entry(
    500,
    'Something went wrong on our side. The team has been notified; please try again later.',
  ),
  VALIDATION_ERROR: entry(422, 'Check your input and make sure every required field is filled in.'),
  BAD_REQUEST: entry(400, 'The request could not be read. Check the data you sent.'),
  PAYLOAD_TOO_LARGE: entry(413, 'The request is too large. Send less data at once.'),
  UNAUTHORIZED: entry(401, 'Please log in again or refresh the page.', ['Log In']),
  FORBIDDEN: entry(403, 'You do not have permission to do this.'),
  NOT_FOUND: entry(404, 'The item does not exist or was deleted.'),
  CONFLICT: entry(409, 'The item was changed by someone else or already exists.'),
  RATE_LIMIT_EXCEEDED: entry(429, 'Too many requests. Please wait a moment and try again.'),
  BILLING_PAYMENT_FAILED: entry(402, 'Your last payment failed. Please verify your payment method.', [
    'Update Payment Method',
    'Contact Support',
  ]),
  BILLING_SUBSCRIPTION_NOT_FOUND: entry(404, 'No subscription was found. Visit billing to choose a plan.', [
    'View Plans',
  ]),
  BILLING_INVALID_PLAN: entry(422, 'That plan is not available. Refresh and pick another plan.'),
  BILLING_CUSTOMER_NOT_FOUND: entry(404, 'A billing account must be set up first. Please contact support.'),
  BILLING_STRIPE_ERROR: entry(502, 'The payment service had a temporary problem. Please retry.', ['Retry']),
  BILLING_INSUFFICIENT_CREDITS: entry(402, 'You are out of credits. Upgrade your plan or buy more credits.', [
    'Upgrade Plan',
    'View Billing',
  ]),
  BILLING_ACTIVE_SUBSCRIPTION_REQUIRED: entry(403, 'This feature needs an active subscription.', ['View Plans']),
  BUILDER_JOB_NOT_FOUND: entry(404, 'The build may have expired. Start it again.'),
  BUILDER_TIMEOUT: entry(504, 'The build took too long. Simplify the configuration and try again.'),
  AGENT_NOT_FOUND: entry(404, 'The agent does not exist or was deleted.'),
  AGENT_CREATION_FAILED: entry(500, 'The agent could not be created.', ['Retry', 'Contact Support']),
  TOOL_EXECUTION_FAILED: entry(502, 'A tool the agent called failed. Check the tool configuration.'),
  COMPOSIO_CONNECTION_FAILED: entry(502, 'The connected app could not be reached.', ['Reconnect App']),
  COMPOSIO_AUTH_REQUIRED: entry(401, 'Connect your account to use this app.', ['Connect Account']),
  DATABASE_ERROR: entry(500, 'A database error occurred. Please try again.'),
  DATABASE_CONNECTION_FAILED: entry(503, 'The database cannot be reached right now. Please try again.'),
  TWILIO_AUTH_FAILED: entry(401, 'Your Twilio credentials were refused.', ['Update Credentials']),
  MESSAGE_SEND_FAILED: entry(502, 'The message could not be sent.', ['Retry']),
  MESSAGE_INVALID_NUMBER: entry(422, 'Use E.164 format, for example +15555555555.'),
  CAMPAIGN_NOT_FOUND: entry(404, 'The campaign does not exist or was deleted.'),
  TWILIO_API_ERROR: entry(502, 'Twilio answered with an error. Please try again.'),
  META_AUTH_FAILED: entry(401, 'Meta refused the Instagram credentials.', ['Update Credentials']),
  META_API_ERROR: entry(502, 'Meta answered with an error. Please try again.'),
  CONTACT_NOT_FOUND: entry(404, 'The contact does not exist or was deleted.'),
  SESSION_EXPIRED: entry(410, 'The messaging session expired.', ['Reconnect']),
  MEDIA_UPLOAD_FAILED: entry(422, 'The file is too large or of an unsupported type.'),
  CAMPAIGN_ALREADY_COMPLETED: entry(409, 'This campaign has already completed.', ['Create New Campaign']),
  BUILD_NOT_FOUND: entry(404, 'The build does not exist or was deleted.', ['View Builds']),
  BUILD_INVALID_CONFIG: entry(422, 'The build configuration is invalid.'),
  CONNECTION_NOT_FOUND: entry(404, 'The connection does not exist or was deleted.'),
  CONNECTION_INACTIVE: entry(409, 'The connection is inactive.', ['Activate Connection']),
  CONNECTION_CREATION_FAILED: entry(500, 'The connection could not be created.', ['Retry', 'Contact Support']),
  CONNECTION_UPDATE_FAILED: entry(500, 'The connection could not be updated.'),
  API_KEY_NOT_FOUND: entry(404, 'No API key is set for this provider.', ['Add API Key']),
  API_KEY_INVALID: entry(401, 'The API key is invalid or has been revoked.', ['Update API Key']),
  API_KEY_DECRYPTION_FAILED: entry(500, 'The stored API key could not be decrypted. Save it again.'),
  API_KEY_CONFIG_ERROR: entry(422, 'The API key is not configured correctly.', ['Configure API Key']),
  ASSISTANT_CREATION_FAILED: entry(500, 'The assistant could not be created.', ['Retry', 'Contact Support']),
  ASSISTANT_NOT_FOUND: entry(404, 'The assistant does not exist or was deleted.'),
  ASSISTANT_CONFIG_ERROR: entry(422, 'The assistant is not configured correctly.', ['Reconfigure']),
  OPENAI_CLIENT_INIT_FAILED: entry(500, 'The AI provider client could not be started.'),
  OPENAI_API_ERROR: entry(502, 'The AI provider answered with an error.'),
  OPENAI_AUTH_FAILED: entry(401, 'The AI provider refused the API key.', ['Update API Key']),
  THREAD_CREATION_FAILED: entry(500, 'The conversation could not be started.', ['Retry']),
  THREAD_NOT_FOUND: entry(404, 'The conversation does not exist or was deleted.'),
  THREAD_INVALID: entry(409, 'The conversation was invalid; a new one is created automatically.'),
  WEBHOOK_VALIDATION_FAILED: entry(401, 'The webhook signature did not match.', ['Check Configuration']),
  WEBHOOK_NOT_FOUND: entry(404, 'The webhook does not exist.'),
  WEBHOOK_MISSING_MESSAGE: entry(422, 'The webhook carried no message.'),
  WEBHOOK_MISSING_BODY: entry(422, 'The webhook carried no body.'),
  AI_SERVICE_ERROR: entry(502, 'The AI service had a problem.', ['Retry']),
  AI_SERVICE_TIMEOUT: entry(504, 'The AI service took too long to answer.', ['Retry']),
  AI_EMPTY_RESPONSE: entry(502, 'The AI service returned an empty answer.'),
  OPENROUTER_SERVICE_ERROR: entry(502, 'The model router had a problem.', ['Retry', 'Contact Support']),
  OPENROUTER_CONFIG_ERROR: entry(500, 'The model router is not configured correctly.'),
  SERVER_CONFIG_ERROR: entry(500, 'The server is not configured correctly.'),
  DECRYPTION_KEY_MISSING: entry(500, 'The encryption key is missing on the server.'),
  AGENT_STATS_UNAVAILABLE: entry(503, 'Agent statistics are not available right now.'),
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
