import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { seedAgency } from '../../seed';
import { useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { readBody } from '../../testing/read-body';
import { insertAgent } from '../agents/repo';
import { createApiKey } from '../api-keys/service';

/** An OpenAI-compatible provider that records each request and answers `next.content`. */
const next = { content: '{}' };
const received: { response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } } }[] = [];
let provider: Server;
let t: TestApp;
let key: string;
let agentId: string;

const booking = {
  type: 'object',
  properties: { guests: { type: 'integer', minimum: 1 }, confirmed: { type: 'boolean' } },
  required: ['guests', 'confirmed'],
  additionalProperties: false,
};

beforeAll(async () => {
  provider = createServer(async (request, response) => {
    received.push(JSON.parse((await readBody(request)) || '{}'));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'stub-model',
        choices: [{ index: 0, message: { role: 'assistant', content: next.content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
      }),
    );
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({ FREE_PLAN_CREDITS: '1000000', PRIVATE_URL_ALLOWLIST: '127.0.0.1' });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Structured Agency',
    owner: { email: 'structured@compat.test', name: 'Owner' },
    subaccounts: ['Main'],
  });
  const subaccountId = agency.subaccountIds[0] as string;
  await useCompatibleProvider(
    t.deps.db,
    agency.accountId,
    `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`,
  );
  const agent = await insertAgent(t.deps.db, {
    id: newId('agent'),
    accountId: agency.accountId,
    subaccountId,
    name: 'Bookings',
    provider: 'compatible',
    model: 'stub-model',
    systemPrompt: 'You take table bookings.',
  });
  agentId = agent.id;
  key = (await createApiKey(t.deps.db, { subaccountId, userId: agency.ownerId, name: 'api' })).key;
});

afterAll(async () => {
  await t?.close();
  provider?.close();
});

const ask = (responseFormat: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { authorization: `Bearer ${key}` },
    payload: {
      model: agentId,
      messages: [{ role: 'user', content: 'A table for 2, please' }],
      response_format: responseFormat,
    },
  });

describe('response_format json_schema on an OpenAI-compatible provider', () => {
  it('passes the schema itself to the provider, not a plain json_object', async () => {
    next.content = '{"guests": 2, "confirmed": true}';
    const res = await ask({ type: 'json_schema', json_schema: { name: 'booking', schema: booking } });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.json().choices[0].message.content)).toEqual({ guests: 2, confirmed: true });
    const sent = received.at(-1)?.response_format;
    expect(sent?.type).toBe('json_schema');
    expect(sent?.json_schema?.name).toBe('booking');
    expect(sent?.json_schema?.schema).toMatchObject({ required: ['guests', 'confirmed'] });
  });

  it('checks the answer against the schema: JSON of another shape is an error, not an answer', async () => {
    next.content = '{"guests": "two"}';
    const res = await ask({ type: 'json_schema', json_schema: { name: 'booking', schema: booking } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(600);
    expect(res.json().error).toMatchObject({
      code: 'AI_EMPTY_RESPONSE',
      message: 'The model did not answer with JSON matching the response_format.',
    });
  });

  it('answers 400 naming response_format for a schema that is not a JSON schema', async () => {
    const before = received.length;
    const res = await ask({ type: 'json_schema', json_schema: { name: 'bad', schema: { type: 'no-such-type' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('response_format.json_schema.schema is not a valid JSON schema');
    expect(received.length).toBe(before);
  });

  it('takes a schema that names its dialect ($schema 2020-12)', async () => {
    next.content = '{"guests": 3, "confirmed": false}';
    const res = await ask({
      type: 'json_schema',
      json_schema: { name: 'booking', schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...booking } },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('still sends json_object when no schema is asked for', async () => {
    next.content = '{"any": "thing"}';
    const res = await ask({ type: 'json_object' });
    expect(res.statusCode).toBe(200);
    expect(received.at(-1)?.response_format?.type).toBe('json_object');
  });
});
