#!/usr/bin/env node
/**
 * Knowledge retrieval benchmark: an agent with 10,000 knowledge chunks (about 120 words each, on
 * the embedded database), and 300 questions asked through the server's own retrieveKnowledge
 * (BM25 over the chunks, the best 4 returned, as every reply does). Figures:
 * - warm: the chunks are in the process's 30 s cache (every question but the first of a window);
 * - cold: the cache was just dropped, so the chunks are read from the database first.
 * - hybrid: the same chunks with 256-dimension embeddings, searched by keywords and meaning for an
 *   agent on OpenAI; each question is embedded by a local OpenAI stand-in over HTTP (real socket,
 *   the network to OpenAI excluded), its nearest vectors found and fused with BM25.
 * Target: warm p95 < 20 ms, keyword and hybrid.
 */
import { register } from 'tsx/esm/api';

register();
const { openTestDeps } = await import('../../apps/server/src/testing/harness.ts');
const { seedAgency } = await import('../../apps/server/src/seed.ts');
const { seedAgent } = await import('../../apps/server/src/features/agents/seed.ts');
const { bulkInsert } = await import('../../apps/server/src/db/bulk-insert.ts');
const { knowledgeChunks, knowledgeDocuments } = await import('../../apps/server/src/features/knowledge/schema.ts');
const { retrieveKnowledge, retrieveForAgent, invalidateKnowledge } = await import(
  '../../apps/server/src/features/knowledge/retrieve.ts'
);
const { termFrequencies, terms } = await import('../../packages/core/src/knowledge/terms.ts');

const CHUNKS = 10_000;
const QUESTIONS = 300;
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'fi', 'gu', 'ha', 'ju'];
const vocabulary = Array.from({ length: 4000 }, () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(
    '',
  ),
);
// Zipf-like: common words often, rare words seldom, as in real text.
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.5)];
const sentence = (length) => Array.from({ length }, word).join(' ');

const { startOpenAiStub } = await import('../../apps/server/src/testing/openai-stub.ts');
const { saveProviderKey } = await import('../../apps/server/src/features/providers/service.ts');
const { embedderFor } = await import('../../apps/server/src/features/knowledge/embeddings.ts');
const { storeEmbeddings } = await import('../../apps/server/src/features/knowledge/embedding-job.ts');

const stub = await startOpenAiStub();
const opened = await openTestDeps({ OPENAI_BASE_URL: stub.url });
const { db } = opened.deps;
const agency = await seedAgency(db, {
  accountName: 'Bench Agency',
  owner: { email: 'owner@retrieval.bench', name: 'Owner' },
  subaccounts: ['Bench'],
});
const rows = Array.from({ length: CHUNKS }, (_, position) => {
  const content = `${sentence(120)}.`;
  return { position, content, terms: termFrequencies(content), length: terms(content).length };
});
/** The 10,000 chunks as one document of the agent; chunk ids are `{prefix}{position}`. */
const storeChunks = async (agentId, documentId, prefix) => {
  await db.insert(knowledgeDocuments).values({
    id: documentId,
    agentId,
    subaccountId: agency.subaccountIds[0],
    name: 'handbook.md',
    mimeType: 'text/markdown',
    sizeBytes: CHUNKS * 800,
    chunkCount: CHUNKS,
  });
  await bulkInsert(
    db,
    knowledgeChunks,
    {
      id: ['text', (row) => `${prefix}${row.position}`],
      document_id: ['text', () => documentId],
      agent_id: ['text', () => agentId],
      position: ['int', (row) => row.position],
      content: ['text', (row) => row.content],
      terms: ['jsonb', (row) => JSON.stringify(row.terms)],
      length: ['int', (row) => row.length],
    },
    rows,
  );
};
const agent = await seedAgent(db, { accountId: agency.accountId, subaccountId: agency.subaccountIds[0] });
await storeChunks(agent.id, 'doc_bench', 'chk_');

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const questions = Array.from({ length: QUESTIONS }, () => `How does ${sentence(6)} work?`);
const cold = [];
for (let i = 0; i < 10; i += 1) {
  invalidateKnowledge(agent.id);
  const started = performance.now();
  await retrieveKnowledge(db, agent.id, questions[i], 4);
  cold.push(performance.now() - started);
}
const warm = [];
let found = 0;
for (const question of questions) {
  const started = performance.now();
  const result = await retrieveKnowledge(db, agent.id, question, 4);
  warm.push(performance.now() - started);
  if (result.length) found += 1;
}

// Hybrid: an agent on OpenAI (the account's key), its chunks embedded as the indexing job does.
await saveProviderKey(opened.deps, agency.accountId, 'openai', { apiKey: 'sk-bench-hybrid-1234' });
const hybridAgent = await seedAgent(db, {
  accountId: agency.accountId,
  subaccountId: agency.subaccountIds[0],
  provider: 'openai',
  model: 'stub-chat',
});
await storeChunks(hybridAgent.id, 'doc_bench_hybrid', 'chk_h_');
const embedder = await embedderFor(opened.deps, agency.accountId, 'openai');
for (let start = 0; start < CHUNKS; start += 500) {
  const batch = rows.slice(start, start + 500);
  const vectors = await embedder.embed(batch.map((row) => row.content));
  await storeEmbeddings(
    db,
    batch.map((row) => `chk_h_${row.position}`),
    vectors,
    embedder.model,
  );
}
const hybridAgentRow = { id: hybridAgent.id, accountId: agency.accountId, provider: 'openai' };
await retrieveForAgent(opened.deps, hybridAgentRow, questions[0], 4);
const hybrid = [];
for (const question of questions) {
  const started = performance.now();
  await retrieveForAgent(opened.deps, hybridAgentRow, question, 4);
  hybrid.push(performance.now() - started);
}
await opened.close();
await stub.close();

const ms = (value) => `${value.toFixed(2)} ms`;
console.log(`Knowledge retrieval, ${CHUNKS} chunks, ${QUESTIONS} questions (BM25, best 4)`);
console.log(
  `  warm  p50 ${ms(percentile(warm, 50))}  p95 ${ms(percentile(warm, 95))}  p99 ${ms(percentile(warm, 99))}  (target p95 < 20 ms)`,
);
console.log(
  `  cold  p50 ${ms(percentile(cold, 50))}  max ${ms(Math.max(...cold))}  (chunks read from the database first)`,
);
console.log(`  questions with a match: ${found} / ${QUESTIONS}`);
console.log(
  `  hybrid (BM25 + 256-dimension embeddings, question embedded over HTTP)  p50 ${ms(percentile(hybrid, 50))}  p95 ${ms(percentile(hybrid, 95))}  p99 ${ms(percentile(hybrid, 99))}  (target p95 < 20 ms)`,
);
const ok = percentile(warm, 95) < 20 && percentile(hybrid, 95) < 20;
console.log(ok ? 'PASS' : 'FAIL');
process.exit(ok ? 0 : 1);
