import { terms, ZQuestionCheck } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { type SeededAgency, seedAgency } from '../../seed';
import { startPayload, testQuestion } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { insertAgent } from '../agents/repo';
import { knowledgeChunks, knowledgeDocuments } from '../knowledge/schema';
import { type CheckInput, JUDGE_UNREADABLE_LABEL, runCheck, runChecks, validateQuestionChecks } from './checks';
import { type ClaimGrader, groundingSystem, LEXICAL_LABEL } from './grounding';
import { evaluationConversations, evaluationRuns } from './schema';

/** Faithfulness, retrieval recall and "answers only from knowledge", with the judge and the lexical fallback. */

const check = (value: unknown) => ZQuestionCheck.parse(value);
const priceList = {
  documentId: 'document_1',
  name: 'price-list.pdf',
  excerpt: 'A 4 kW system costs 6,000 pounds installed.',
};
const input = (answer: string, sources = [priceList], question = 'What does a 4 kW system cost?'): CheckInput => ({
  answer,
  question,
  sources,
  latencyMs: 1,
  credits: 0,
  toolCalls: [],
});

describe('faithfulness, lexical fallback', () => {
  it('passes an answer whose sentences come from the excerpts, labelled as the fallback', () => {
    const result = runCheck(check({ type: 'faithfulness' }), input('A 4 kW system costs 6,000 pounds installed.'));
    expect(result).toMatchObject({ passed: true, method: 'lexical', unsupported: [] });
    expect(result.detail).toContain(LEXICAL_LABEL);
  });
  it('lists the sentences the excerpts do not support', () => {
    const result = runCheck(
      check({ type: 'faithfulness' }),
      input('A 4 kW system costs 6,000 pounds installed. Every customer receives a free battery worth 3,000 pounds.'),
    );
    expect(result.passed).toBe(false);
    expect(result.unsupported).toEqual(['Every customer receives a free battery worth 3,000 pounds.']);
    expect(result.detail).toContain('1 of 2 claim(s) not supported');
  });
});

describe('retrieval recall', () => {
  it('counts expected sources by name or id against the retrieved ones, with a threshold', () => {
    const two = check({ type: 'retrieval_recall', expected: ['Price-List.pdf', 'warranty.pdf'] });
    const failed = runCheck(two, input('x'));
    expect(failed).toMatchObject({ passed: false });
    expect(failed.detail).toContain('Recall 50% (1 of 2');
    expect(failed.detail).toContain('missing: warranty.pdf');
    expect(
      runCheck(check({ type: 'retrieval_recall', expected: ['Price-List.pdf', 'warranty.pdf'], min: 0.5 }), input('x'))
        .passed,
    ).toBe(true);
    expect(runCheck(check({ type: 'retrieval_recall', expected: ['document_1'] }), input('x')).passed).toBe(true);
  });
  it('refuses an empty list of expected sources', () => {
    expect(ZQuestionCheck.safeParse({ type: 'retrieval_recall', expected: [] }).success).toBe(false);
    expect(() =>
      validateQuestionChecks({
        customQuestions: [testQuestion('q', 'Q?', { checks: [check({ type: 'retrieval_recall', expected: ['a'] })] })],
      }),
    ).not.toThrow();
  });
});

describe('answers only from knowledge', () => {
  const fromKnowledge = check({ type: 'answers_from_knowledge' });
  it('passes a decline when nothing was retrieved, fails an invented answer', () => {
    expect(runCheck(fromKnowledge, input("Sorry, I don't have that information.", [])).passed).toBe(true);
    const invented = runCheck(fromKnowledge, input('Our warranty lasts twenty five years on every panel.', []));
    expect(invented.passed).toBe(false);
    expect(invented.detail).toContain('Nothing was retrieved; the answer does not decline');
  });
  it('with relevant excerpts, fails claims outside them', () => {
    expect(runCheck(fromKnowledge, input('A 4 kW system costs 6,000 pounds installed.')).passed).toBe(true);
    expect(
      runCheck(fromKnowledge, input('A 4 kW system costs 6,000 pounds. Financing starts at 2% APR monthly.')).passed,
    ).toBe(false);
  });
});

describe('with the judge model', () => {
  it('grades once for both checks and lists the unsupported claims', async () => {
    let calls = 0;
    const grader: ClaimGrader = async () => {
      calls += 1;
      return {
        claims: [
          { claim: 'A 4 kW system costs 6,000 pounds', supported: true },
          { claim: 'Installation takes one day', supported: false },
        ],
        relevant: true,
        declined: false,
      };
    };
    const results = await runChecks(
      [check({ type: 'faithfulness' }), check({ type: 'answers_from_knowledge' })],
      input('It costs 6,000 pounds and installation takes one day.'),
      null,
      undefined,
      grader,
    );
    expect(calls).toBe(1);
    expect(results.map((result) => [result.passed, result.method, result.unsupported])).toEqual([
      [false, 'judge', ['Installation takes one day']],
      [false, 'judge', ['Installation takes one day']],
    ]);
    expect(results[0]?.detail).toContain('judge model');
  });
  it('falls back to the lexical check when the judge gives nothing readable', async () => {
    const [result] = await runChecks(
      [check({ type: 'faithfulness' })],
      input('A 4 kW system costs 6,000 pounds installed.'),
      null,
      undefined,
      async () => null,
    );
    expect(result).toMatchObject({ passed: true, method: 'lexical' });
    expect(result?.detail).toContain(JUDGE_UNREADABLE_LABEL);
  });
  it('names the JSON keys in the prompt', () => {
    for (const key of ['"claims"', '"claim"', '"supported"', '"relevant"', '"declined"'])
      expect(groundingSystem()).toContain(key);
  });
});

describe('a run of an agent with knowledge', () => {
  let t: TestApp;
  let agency: SeededAgency;
  let headers: Record<string, string>;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp({ FREE_PLAN_CREDITS: '1000000' });
    agency = await seedAgency(t.deps.db, {
      accountName: 'Grounding Agency',
      owner: { email: 'owner@grounding.test', name: 'Owner' },
      subaccounts: ['Solar'],
    });
    const subaccountId = agency.subaccountIds[0] as string;
    headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': subaccountId };
    const agent = await insertAgent(t.deps.db, {
      id: newId('agent'),
      accountId: agency.accountId,
      subaccountId,
      name: 'Sunny',
      provider: 'offline',
      model: 'offline',
      systemPrompt: 'You answer only from your knowledge.',
      firstMessage: '',
      tools: [],
    });
    agentId = agent.id;
    const documentId = newId('document');
    await t.deps.db.insert(knowledgeDocuments).values({
      id: documentId,
      agentId,
      subaccountId,
      name: 'price-list.pdf',
      mimeType: 'application/pdf',
      sizeBytes: 100,
      chunkCount: 1,
    });
    const content = 'A 4 kW solar system costs 6,000 pounds installed.';
    const counts: Record<string, number> = {};
    for (const term of terms(content)) counts[term] = (counts[term] ?? 0) + 1;
    await t.deps.db.insert(knowledgeChunks).values({
      id: newId('chunk'),
      documentId,
      agentId,
      position: 0,
      content,
      terms: counts,
      length: terms(content).length,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("records the retrieved sources on the agent's turn and runs the grounding checks on them", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/openai/assistants/run/evaluationdata',
      headers,
      payload: startPayload({
        testing_model_for_test_generation: 'offline:offline',
        ai1_config: {},
        assistant_id: agentId,
        customQuestions: [
          testQuestion('price', 'How much does a 4 kW solar system cost?', {
            successCriteria: '',
            checks: [
              { type: 'retrieval_recall', expected: ['price-list.pdf', 'warranty.pdf'], min: 0.5 },
              { type: 'faithfulness' },
            ] as never,
          }),
        ],
      }) as object,
    });
    expect(response.statusCode).toBe(202);
    const { runId } = response.json() as { runId: string };
    const until = Date.now() + 20_000;
    for (;;) {
      const [row] = await t.deps.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId));
      if (row && ['completed', 'failed'].includes(row.status)) break;
      if (Date.now() > until) throw new Error('run did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [row] = await t.deps.db
      .select()
      .from(evaluationConversations)
      .where(eq(evaluationConversations.runId, runId));
    const answerLine = row?.transcript.at(-1);
    expect(answerLine?.sources?.map((source) => source.name)).toEqual(['price-list.pdf']);
    const results = (row?.checks ?? []) as { type: string; passed: boolean; method?: string; detail: string }[];
    expect(results.find((result) => result.type === 'retrieval_recall')).toMatchObject({ passed: true });
    expect(results.find((result) => result.type === 'faithfulness')).toMatchObject({ method: 'lexical' });
  });
});
