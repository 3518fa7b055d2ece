import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartUpload } from '../../testing/multipart';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { until } from '../../testing/until';
import { seedAgent } from '../agents/seed';
import { retrieveForAgent, retrieveKnowledge } from './retrieve';
import { knowledgeChunks } from './schema';

/**
 * Hybrid retrieval against a local OpenAI stand-in over HTTP: its embeddings put synonyms
 * together, so a question that shares no word with the right passage still finds it by meaning.
 */
let stub: OpenAiStub;
let t: TestApp;
let cookie: string;
let accountId: string;
let subaccountId: string;

const upload = async (agentId: string, name: string, content: string) => {
  const body = multipartUpload({ name, type: 'text/markdown', content });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/agents/${agentId}/documents`,
    headers: { cookie, 'x-subaccount-id': subaccountId, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
};
const searchOf = async (agentId: string) =>
  (
    await t.app.inject({
      url: `/api/agents/${agentId}/documents`,
      headers: { cookie, 'x-subaccount-id': subaccountId },
    })
  ).json().search;

beforeAll(async () => {
  stub = await startOpenAiStub();
  t = await startTestApp({ OPENAI_BASE_URL: stub.url });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Hybrid Agency',
    owner: { email: 'owner@hybrid.test', name: 'Owner' },
    subaccounts: ['Clinic'],
  });
  accountId = agency.accountId;
  subaccountId = agency.subaccountIds[0] as string;
  cookie = await t.cookieFor(agency.ownerId);
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/connect/${subaccountId}/providers/openai`,
    headers: { cookie },
    payload: { apiKey: 'sk-test-hybrid-1234' },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const QUESTION = 'How much does it cost?';

describe('hybrid retrieval', () => {
  it('embeds the passages of an OpenAI agent in a job and finds a passage by meaning', async () => {
    const agent = await seedAgent(t.deps.db, { accountId, subaccountId, provider: 'openai', model: 'stub-chat' });
    await upload(agent.id, 'fees.md', 'Our fees: a check-up is 40 pounds and a clean is 60 pounds.');
    await upload(agent.id, 'hours.md', 'We are open Monday to Friday from 8 in the morning.');
    const search = await until(
      () => searchOf(agent.id),
      (value) => value.indexed === value.total,
    );
    expect(search).toEqual({ mode: 'hybrid', model: 'text-embedding-3-small', indexed: 2, total: 2 });
    const embeddingCalls = stub.requests.filter((request) => request.path.endsWith('/embeddings'));
    expect(embeddingCalls[0]?.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: 256 });
    expect(embeddingCalls[0]?.authorization).toBe('Bearer sk-test-hybrid-1234');

    // No word of the question is in either passage: keywords alone find nothing, meaning finds the fees.
    expect(await retrieveKnowledge(t.deps.db, agent.id, QUESTION, 2)).toEqual([]);
    const [best] = await retrieveForAgent(t.deps, agent, QUESTION, 2);
    expect(best?.name).toBe('fees.md');

    // A reply gives the model that passage.
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/openrouter/chat',
      headers: { cookie, 'x-subaccount-id': subaccountId },
      payload: { build_id: agent.id, message: QUESTION },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const chat = stub.requests.filter((request) => request.path.endsWith('/chat/completions')).at(-1);
    expect(JSON.stringify(chat?.body)).toContain('a check-up is 40 pounds');
  });

  it('searches an agent without an embedding model by keywords alone, and embeds nothing', async () => {
    const agent = await seedAgent(t.deps.db, { accountId, subaccountId, provider: 'anthropic', model: 'claude' });
    const before = stub.requests.length;
    await upload(agent.id, 'fees.md', 'Our fees: a check-up is 40 pounds.');
    expect(await searchOf(agent.id)).toEqual({ mode: 'keyword', model: null, indexed: 0, total: 1 });
    expect(await retrieveForAgent(t.deps, agent, 'What are your fees?', 2)).toHaveLength(1);
    expect(await retrieveForAgent(t.deps, agent, QUESTION, 2)).toEqual([]);
    const rows = await t.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.agentId, agent.id));
    expect(rows.map((row) => row.embeddingModel)).toEqual([null]);
    expect(stub.requests.slice(before).filter((request) => request.path.endsWith('/embeddings'))).toEqual([]);
  });

  it('answers from keywords when the question cannot be embedded', async () => {
    const agent = await seedAgent(t.deps.db, { accountId, subaccountId, provider: 'openai', model: 'stub-chat' });
    await upload(agent.id, 'fees.md', 'Our fees: a check-up is 40 pounds.');
    await until(
      () => searchOf(agent.id),
      (value) => value.indexed === value.total,
    );
    await stub.close();
    const results = await retrieveForAgent(t.deps, agent, 'What are your fees?', 2);
    expect(results.map((result) => result.name)).toEqual(['fees.md']);
    stub = await startOpenAiStub();
  });
});
