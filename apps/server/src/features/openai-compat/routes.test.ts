import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';

describe('OpenAI-compatible API with the official openai client', () => {
  let t: TestApp;
  let baseURL: string;
  let cookie: string;
  let subaccountId: string;
  let agentId: string;
  let otherAgentId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const agency = await seedAgency(t.deps.db, {
      accountName: 'API Agency',
      owner: { email: 'owner@api.test', name: 'Owner' },
      subaccounts: ['Main', 'Second'],
    });
    subaccountId = agency.subaccountIds[0] ?? '';
    cookie = await t.cookieFor(agency.ownerId);
    agentId = (
      await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId, firstMessage: 'Hi from the API agent!' })
    ).id;
    otherAgentId = (
      await seedAgent(t.deps.db, { accountId: agency.accountId, subaccountId: agency.subaccountIds[1] ?? '' })
    ).id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => t.close());

  const createKey = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie, 'x-subaccount-id': subaccountId },
      payload: { name: 'CI' },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; key: string; keyTail: string };
  };

  it('lists agents as models and answers chat completions, streamed and not', async () => {
    const created = await createKey();
    expect(created.key).toMatch(/^sk_sb_/);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/api-keys',
      headers: { cookie, 'x-subaccount-id': subaccountId },
    });
    expect(list.body).not.toContain(created.key);
    expect(list.json().keys[0].keyTail).toBe(created.key.slice(-4));

    const client = new OpenAI({ apiKey: created.key, baseURL });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual([agentId]);

    const completion = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hi from the API agent!');

    const stream = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    const parts: string[] = [];
    for await (const chunk of stream) parts.push(chunk.choices[0]?.delta.content ?? '');
    expect(parts.filter(Boolean).length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('Hi from the API agent!');

    await expect(
      client.chat.completions.create({ model: otherAgentId, messages: [{ role: 'user', content: 'hello' }] }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a revoked key', async () => {
    const created = await createKey();
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/api-keys/${created.id}`,
      headers: { cookie, 'x-subaccount-id': subaccountId },
    });
    expect(revoked.json().revokedAt).not.toBeNull();
    const client = new OpenAI({ apiKey: created.key, baseURL, maxRetries: 0 });
    await expect(client.models.list()).rejects.toMatchObject({ status: 401 });
  });

  it('returns usage, JSON in the response_format asked for, and streamed usage', async () => {
    const { key } = await createKey();
    const client = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
    const plain = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(plain.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(plain.usage?.completion_tokens).toBeGreaterThan(0);
    expect(plain.usage?.total_tokens).toBe((plain.usage?.prompt_tokens ?? 0) + (plain.usage?.completion_tokens ?? 0));

    const structured = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'Give me a booking for 2 people' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'booking',
          schema: {
            type: 'object',
            properties: { guests: { type: 'integer', minimum: 1 }, confirmed: { type: 'boolean' } },
            required: ['guests', 'confirmed'],
            additionalProperties: false,
          },
        },
      },
    });
    const booking = JSON.parse(structured.choices[0]?.message.content ?? '') as { guests: number; confirmed: boolean };
    expect(booking).toEqual({ guests: 2, confirmed: true });
    const anyJson = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'Answer in JSON' }],
      response_format: { type: 'json_object' },
    });
    expect(() => JSON.parse(anyJson.choices[0]?.message.content ?? '')).not.toThrow();

    const stream = await client.chat.completions.create({
      model: agentId,
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it("returns calls of the caller's tools in the OpenAI shape and answers from their results", async () => {
    const { key } = await createKey();
    const client = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'check_availability',
          description: 'Free appointment slots on a day',
          parameters: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'Check availability for Monday' },
    ];
    const first = await client.chat.completions.create({ model: agentId, messages, tools });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'check_availability' } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toHaveProperty('day');

    const second = await client.chat.completions.create({
      model: agentId,
      tools,
      messages: [
        ...messages,
        choice?.message as OpenAI.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: call?.id ?? '', content: '{"slots":["9:00","11:30"]}' },
      ],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toContain('11:30');

    const streamed = await client.chat.completions.create({ model: agentId, messages, tools, stream: true });
    const calls: { name?: string }[] = [];
    let finish: string | null | undefined;
    for await (const chunk of streamed) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) calls.push({ name: delta.function?.name });
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(calls[0]?.name).toBe('check_availability');
    expect(finish).toBe('tool_calls');
  });

  it('answers 400 naming a parameter it does not support, never ignoring it', async () => {
    const { key } = await createKey();
    const client = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
    const cases: [Record<string, unknown>, string][] = [
      [{ logprobs: true }, 'logprobs'],
      [{ n: 2 }, 'n (only 1 is supported)'],
      [{ seed: 7, audio: { voice: 'alloy' } }, 'seed, audio'],
      [
        { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }] },
        'image_url',
      ],
      [{ tool_choice: { type: 'function', function: { name: 'nothing' } } }, 'tool_choice names nothing'],
    ];
    for (const [extra, named] of cases) {
      const error = (await client.chat.completions
        .create({ model: agentId, messages: [{ role: 'user', content: 'hello' }], ...extra } as never)
        .catch((thrown: unknown) => thrown)) as { status?: number; message?: string };
      expect(error.status, JSON.stringify(extra)).toBe(400);
      expect(error.message).toContain(named);
    }
  });
});
