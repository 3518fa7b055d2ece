import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { seedAgent } from '../agents/seed';
import { seedAgency } from '../tenancy/seed';

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
});
