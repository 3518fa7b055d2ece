import { ZQuestionCheck } from '@switchboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type OpenAiStub, startOpenAiStub } from '../../testing/openai-stub';
import { seedAgent } from '../agents/seed';
import { runChecks, TERM_VECTOR_LABEL } from './checks';
import { targetEmbedder } from './semantic-check';

/**
 * Semantic similarity by the agent's own embedding model, against a local OpenAI stand-in over
 * HTTP whose vectors put synonyms together: "Fees." and "Price." share no word but one meaning.
 */
let stub: OpenAiStub;
let t: TestApp;
let accountId: string;
let subaccountId: string;

beforeAll(async () => {
  stub = await startOpenAiStub();
  t = await startTestApp({ OPENAI_BASE_URL: stub.url });
  const agency = await seedAgency(t.deps.db, {
    accountName: 'Semantic Agency',
    owner: { email: 'owner@semantic-check.test', name: 'Owner' },
    subaccounts: ['Clinic'],
  });
  accountId = agency.accountId;
  subaccountId = agency.subaccountIds[0] as string;
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/api/connect/${subaccountId}/providers/openai`,
    headers: { cookie: await t.cookieFor(agency.ownerId) },
    payload: { apiKey: 'sk-test-semantic-1234' },
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const check = ZQuestionCheck.parse({ type: 'semantic_similarity', reference: 'Price.', min: 0.8 });
const input = { answer: 'Fees.', latencyMs: 1, credits: 0, toolCalls: [] };

describe('semantic similarity of the agent under test', () => {
  it('uses the embedding model of an OpenAI agent: same meaning, no shared word, passes', async () => {
    const agent = await seedAgent(t.deps.db, { accountId, subaccountId, provider: 'openai', model: 'stub-chat' });
    const embedder = await targetEmbedder(t.deps, accountId, { kind: 'agent', agentId: agent.id });
    expect(embedder?.label).toBe('text-embedding-3-small');
    const before = stub.requests.length;
    const [result] = await runChecks([check], input, embedder);
    expect(stub.requests.slice(before).some((request) => request.path.endsWith('/embeddings'))).toBe(true);
    expect(result).toMatchObject({ passed: true, method: 'embedding' });
    expect(result?.detail).toBe('Similarity 100% (embedding model text-embedding-3-small).');
  });

  it('an agent whose provider has no embedding model gets the term-vector fallback, labelled', async () => {
    const agent = await seedAgent(t.deps.db, { accountId, subaccountId, provider: 'anthropic', model: 'claude' });
    const embedder = await targetEmbedder(t.deps, accountId, { kind: 'agent', agentId: agent.id });
    expect(embedder).toBeNull();
    const [result] = await runChecks([check], input, embedder);
    expect(result).toMatchObject({ passed: false, method: 'term-vector' });
    expect(result?.detail).toBe(`Similarity 0% (${TERM_VECTOR_LABEL}).`);
  });

  it('a model under test uses its own provider’s embedding model; the offline model none', async () => {
    expect(
      (await targetEmbedder(t.deps, accountId, { kind: 'model', choice: { provider: 'openai', model: 'gpt-4o' } }))
        ?.label,
    ).toBe('text-embedding-3-small');
    expect(
      await targetEmbedder(t.deps, accountId, { kind: 'model', choice: { provider: 'offline', model: 'offline' } }),
    ).toBeNull();
  });
});
