import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ZCheckoutRequest, ZRedeemRequest, ZScheduleDowngradeRequest, ZUpgradeRequest } from '@switchboard/core';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { OPERATION_DOCS } from './catalogue';

/**
 * The API reference's shape around the generated schemas: every operation gets its summary and
 * description (catalogue.ts), its security (the platform API key as a bearer token, or the session
 * cookie; none for public operations), its error answers in the one envelope with an example, and
 * request schemas the handlers parse themselves (billing) are shown too. Nothing here changes how a
 * route validates or answers.
 */

const SESSION_COOKIE = 'sb_session';

const envelope = (code: string, message: string) => ({
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'support_id'],
      properties: {
        code: { type: 'string', description: 'A code of the error catalogue' },
        message: { type: 'string' },
        support_id: { type: 'string', description: '32 hex characters, also in the server log' },
        field: { type: 'string', description: 'The input field at fault, when there is one' },
      },
    },
  },
  example: { error: { code, message, support_id: '9f2c4e1ab07d4c58a1e3f0b6d2c8e7a4' } },
});

const ERRORS: Record<number, [description: string, code: string, message: string]> = {
  400: ['A parameter the API does not support', 'VALIDATION_ERROR', 'Not supported by this API: logprobs'],
  401: [
    'Signed out, or a missing, revoked or wrong API key',
    'UNAUTHORIZED',
    'Please log in again or refresh the page.',
  ],
  402: ['Not enough credits', 'INSUFFICIENT_CREDITS', 'You have run out of credits.'],
  403: [
    'The role or the plan does not allow it',
    'BILLING_ACTIVE_SUBSCRIPTION_REQUIRED',
    'Your plan allows 1 agent per sub-account. Upgrade your plan to add more.',
  ],
  404: ['Not found (also for another tenant’s ids)', 'NOT_FOUND', 'The item does not exist or was deleted.'],
  422: ['Invalid input; `field` names it', 'VALIDATION_ERROR', 'Use at most 2,000 characters'],
  429: ['Too many requests', 'RATE_LIMIT_EXCEEDED', 'Too many requests. Try again in 1 minute.'],
  500: ['Unexpected error; quote the support id', 'INTERNAL_ERROR', 'Something went wrong.'],
};

/** Request bodies that handlers parse themselves (so the route has no body schema of its own). */
const PARSED_BODIES: Record<string, ZodType> = {};
for (const prefix of ['/api/stripe', '/stripe']) {
  PARSED_BODIES[`POST ${prefix}/create-checkout`] = ZCheckoutRequest;
  PARSED_BODIES[`POST ${prefix}/upgrade-subscription`] = ZUpgradeRequest.extend({
    prorationDate: z.number().int().positive().optional(),
  });
  PARSED_BODIES[`POST ${prefix}/preview-upgrade`] = ZUpgradeRequest;
  PARSED_BODIES[`POST ${prefix}/schedule-downgrade`] = ZScheduleDowngradeRequest;
}
PARSED_BODIES['POST /api/openrouter/credits/redeem'] = ZRedeemRequest;

const EXAMPLES: Record<string, unknown> = {
  'POST /v1/chat/completions': {
    model: 'agt_3k9x2m7q1w',
    messages: [{ role: 'user', content: 'Can I book a check-up on Monday?' }],
    response_format: { type: 'text' },
  },
  'POST /api/agent/build': {
    idea: 'A friendly front-desk assistant for Bright Smile Dental in Leeds that books check-ups',
    provider: 'openai',
    model: 'gpt-4o-mini',
  },
  'POST /api/agents': { name: 'Bright Smile Dental Assistant', firstMessage: 'Hello, and welcome!' },
  'POST /api/stripe/create-checkout': { priceId: 'sb_growth_monthly' },
  'POST /api/openrouter/credits/redeem': { code: 'WELCOME100' },
};

const SPENDS_CREDITS =
  /(\/chat|chat\/completions|run-prompt|preview-chat|demo-chat|\/agent\/build|questiongenerator|evaluationdata|from-template)$/;

export const operationKey = (method: string, url: string) => `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

type Schema = Record<string, unknown> & {
  summary?: string;
  description?: string;
  body?: Record<string, unknown>;
  params?: unknown;
  querystring?: unknown;
  response?: Record<string, unknown>;
  security?: unknown;
  hide?: boolean;
};

const transform: NonNullable<FastifyDynamicSwaggerOptions['transform']> = (args) => {
  const out = jsonSchemaTransform(args as Parameters<typeof jsonSchemaTransform>[0]);
  const schema = { ...(out.schema as Schema) };
  if (schema.hide) return { ...out, schema: schema as FastifySchema };
  const method = String(Array.isArray(args.route.method) ? args.route.method[0] : args.route.method).toUpperCase();
  const key = operationKey(method, out.url);
  const docs = OPERATION_DOCS[key];
  schema.summary ??= docs?.[0] ?? key;
  schema.description ??= docs?.[1] ?? key;
  const config = args.route.config as { access?: { kind?: string }; limit?: unknown } | undefined;
  const access = config?.access;
  const isPublic = access?.kind === 'public';
  schema.security = isPublic ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }];
  const parsed = PARSED_BODIES[key];
  if (parsed && !schema.body) schema.body = z.toJSONSchema(parsed, { io: 'input', unrepresentable: 'any' });
  const example =
    EXAMPLES[key] ?? (key.startsWith('POST /stripe/') ? EXAMPLES[key.replace('/stripe/', '/api/stripe/')] : undefined);
  if (example && schema.body) schema.body = { ...schema.body, example };

  const response: Record<string, unknown> = { ...(schema.response ?? {}) };
  if (!Object.keys(response).some((status) => status.startsWith('2'))) {
    response['200'] = { description: 'OK', type: 'object', additionalProperties: true };
  }
  const statuses = [500];
  if (!isPublic) statuses.push(401, 403);
  if (schema.params || /\{/.test(key)) statuses.push(404);
  if (schema.body || schema.querystring) statuses.push(422);
  // Every route is limited (per address when public, per API key otherwise) unless it opts out.
  if (config?.limit !== false) statuses.push(429);
  if (SPENDS_CREDITS.test(key)) statuses.push(402);
  if (key === 'POST /v1/chat/completions') statuses.push(400);
  for (const status of statuses) {
    if (response[String(status)]) continue;
    const [description, code, message] = ERRORS[status] ?? ERRORS[500] ?? ['Error', 'INTERNAL_ERROR', ''];
    response[String(status)] = { description, ...envelope(code, message) };
  }
  schema.response = response;
  return { ...out, schema: schema as FastifySchema };
};

export const swaggerOptions = (): FastifyDynamicSwaggerOptions => ({
  openapi: {
    info: {
      title: 'Switchboard API',
      description: [
        'Every error answers `{ "error": { "code", "message", "support_id" } }` with a code of the catalogue.',
        'Authenticate with a platform API key (`Authorization: Bearer sk_sb_…`, created on the API Key page and bound to one sub-account) or, in the browser, the session cookie.',
        'Press **Authorize** and paste an API key to try the operations here.',
      ].join('\n\n'),
      version: '1.0.0',
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_sb_…',
          description: 'A platform API key from the API Key page (/apitester). It acts in its own sub-account.',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session of a signed-in browser.',
        },
      },
    },
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
  },
  transform,
});
