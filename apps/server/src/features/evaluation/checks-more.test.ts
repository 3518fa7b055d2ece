import { checksVerdict, ZQuestionCheck } from '@switchboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { startPayload, testQuestion } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type CheckInput, runCheck, runChecks, TERM_VECTOR_LABEL, validateQuestionChecks } from './checks';
import { evaluationConversations, evaluationRuns } from './schema';
import type { CheckEmbedder } from './semantic-check';

/** JSON-schema validity, weighted checks with a pass threshold, and semantic similarity with its fallback. */

const input = (answer: string): CheckInput => ({ answer, latencyMs: 10, credits: 0, toolCalls: [] });
const check = (value: unknown) => ZQuestionCheck.parse(value);

const quoteSchema = {
  type: 'object',
  required: ['price', 'currency'],
  properties: { price: { type: 'number', minimum: 0 }, currency: { type: 'string', enum: ['GBP', 'EUR'] } },
  additionalProperties: false,
};

describe('json_schema', () => {
  it.each([
    ['{"price": 6000, "currency": "GBP"}', true, 'valid against the schema'],
    ['```json\n{"price": 10, "currency": "EUR"}\n```', true, 'valid against the schema'],
    ['{"price": "6000", "currency": "GBP"}', false, '/price must be number'],
    ['{"price": 1, "currency": "GBP", "note": "x"}', false, 'additional properties'],
    ['It costs 6000 pounds.', false, 'not JSON'],
    ['Here you go: {"price": 1, "currency": "GBP"}', false, 'not JSON'],
  ])('%s passes: %s', (answer, passed, detail) => {
    const result = runCheck(check({ type: 'json_schema', schema: quoteSchema }), input(answer));
    expect(result.passed).toBe(passed);
    expect(result.detail).toContain(detail);
    expect(result.label).toBe('JSON valid against the schema');
  });

  it('refuses an invalid schema, or one with a catastrophic pattern, with the field', () => {
    const question = (schema: Record<string, unknown>) =>
      testQuestion('q', 'Quote?', {
        checks: [check({ type: 'contains', value: 'x' }), check({ type: 'json_schema', schema })],
      });
    expect(() => validateQuestionChecks({ customQuestions: [question({ type: 'no-such-type' })] })).toThrowError(
      expect.objectContaining({ status: 422, field: 'customQuestions.0.checks.1.schema' }),
    );
    expect(() =>
      validateQuestionChecks({ customQuestions: [question({ type: 'string', pattern: '(a+)+$' })] }),
    ).toThrowError(expect.objectContaining({ status: 422, message: expect.stringContaining('pattern') }));
    expect(() => validateQuestionChecks({ customQuestions: [question(quoteSchema)] })).not.toThrow();
  });
});

describe('weights and the pass threshold', () => {
  const results = [{ passed: true, weight: 3 }, { passed: false, weight: 1 }, { passed: true }];
  it('needs every check without a threshold, as before', () => {
    expect(checksVerdict(results)).toMatchObject({ passed: false, summary: '2 of 3 checks passed' });
    expect(checksVerdict([{ passed: true }, { passed: true }]).passed).toBe(true);
  });
  it('with a threshold, passes on the share of weight that passed', () => {
    expect(checksVerdict(results, 0.8)).toMatchObject({ passed: true, score: 0.8 });
    expect(checksVerdict(results, 0.81).passed).toBe(false);
    expect(checksVerdict(results, 0.8).summary).toBe('weight 4 of 5 passed (80%, threshold 80%)');
    expect(checksVerdict([{ passed: false, weight: 0 }], 1).passed).toBe(true);
  });
  it('shows the weight beside the check', () => {
    expect(runCheck(check({ type: 'contains', value: 'kW', weight: 2 }), input('4 kW'))).toMatchObject({
      weight: 2,
      label: 'Contains "kW" · weight 2',
    });
  });
});

describe('semantic_similarity', () => {
  const semantic = check({ type: 'semantic_similarity', reference: 'The system costs six thousand pounds.', min: 0.8 });
  const embedder = (vectors: Record<string, number[]>): CheckEmbedder & { calls: number } => ({
    label: 'text-embedding-3-small',
    calls: 0,
    async embed(texts) {
      this.calls += 1;
      return texts.map((text) => vectors[text] ?? [0, 0, 1]);
    },
  });

  it('uses the agent’s embedding model when one is configured, labelled', async () => {
    const model = embedder({ 'It is £6,000.': [1, 0.1, 0], 'The system costs six thousand pounds.': [1, 0, 0] });
    const [result] = await runChecks([semantic], input('It is £6,000.'), model);
    expect(model.calls).toBe(1);
    expect(result).toMatchObject({ passed: true, method: 'embedding' });
    expect(result?.detail).toContain('embedding model text-embedding-3-small');
    const [unlike] = await runChecks([semantic], input('We sell heat pumps.'), model);
    expect(unlike).toMatchObject({
      passed: false,
      method: 'embedding',
      detail: 'Similarity 0% (embedding model text-embedding-3-small).',
    });
  });

  it('falls back to term vectors without an embedding model, labelled as the offline fallback', async () => {
    const [result] = await runChecks([semantic], input('The system costs six thousand pounds.'), null);
    expect(result).toMatchObject({ passed: true, method: 'term-vector' });
    expect(result?.detail).toContain(TERM_VECTOR_LABEL);
    const [low] = await runChecks([semantic], input('Heat pumps in Bristol.'), null);
    expect(low).toMatchObject({ passed: false, method: 'term-vector' });
  });

  it('falls back to term vectors, and says so, when the embedding model fails', async () => {
    const failing: CheckEmbedder = {
      label: 'text-embedding-3-small',
      embed: async () => Promise.reject(new Error('down')),
    };
    const [result] = await runChecks([semantic], input('The system costs six thousand pounds.'), failing);
    expect(result).toMatchObject({ passed: true, method: 'term-vector' });
    expect(result?.detail).toContain('did not answer');
  });
});

describe('over HTTP', () => {
  let t: TestApp;
  let agency: SeededAgency;
  let who: { cookie: string; subaccountId: string };

  beforeAll(async () => {
    t = await startTestApp({ FREE_PLAN_CREDITS: '1000000' });
    agency = await seedAgency(t.deps.db, {
      accountName: 'Checks Agency',
      owner: { email: 'owner@checks-more.test', name: 'Owner' },
      subaccounts: ['Solar'],
    });
    who = { cookie: await t.cookieFor(agency.ownerId), subaccountId: agency.subaccountIds[0] as string };
  });
  afterAll(async () => {
    await t?.close();
  });
  const headers = () => ({ cookie: who.cookie, 'x-subaccount-id': who.subaccountId });

  it('refuses a template with an invalid JSON schema with 422 and saves nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/templates',
      headers: headers(),
      payload: {
        templateName: 'Bad schema',
        templateData: {
          customQuestions: [testQuestion('q', 'Quote?', { checks: [{ type: 'json_schema', schema: { type: 12 } }] })],
        },
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { field: 'customQuestions.0.checks.0.schema' } });
    const list = await t.app.inject({ method: 'GET', url: '/api/templates', headers: headers() });
    expect(
      (list.json() as { templates: { templateName: string }[] }).templates.map((item) => item.templateName),
    ).not.toContain('Bad schema');
  });

  it('runs weighted checks against the threshold, semantic similarity labelled as the fallback', async () => {
    const checks = [
      { type: 'not_contains', value: 'zzqqzz', weight: 3 },
      { type: 'contains', value: 'zzqqzz', weight: 1 },
      { type: 'semantic_similarity', reference: 'Solar panels for your home.', min: 0 },
    ];
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/evaluation/run/evaluationdata',
      headers: headers(),
      payload: startPayload({
        testing_model_for_test_generation: 'offline:offline',
        ai1_config: { ...(startPayload().ai1_config as object), model: 'offline:offline' } as never,
        settings: { prompt: 'You are a solar sales assistant.' },
        customQuestions: [
          testQuestion('threshold', 'What do you sell?', {
            successCriteria: '',
            checks: checks as never,
            passThreshold: 0.7,
          }),
          testQuestion('all', 'What do you sell?', { successCriteria: '', checks: checks as never }),
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
    const rows = await t.deps.db.select().from(evaluationConversations).where(eq(evaluationConversations.runId, runId));
    const byKey = (key: string) => rows.find((row) => row.questionKey === `custom:${key}`);
    expect(byKey('threshold')).toMatchObject({ outcome: 'passed', score: 0.8 });
    expect(byKey('threshold')?.reasoning).toContain('threshold 70%');
    expect(byKey('all')).toMatchObject({ outcome: 'failed' });
    const semanticResult = ((byKey('all')?.checks ?? []) as { type: string; method?: string; detail: string }[]).find(
      (item) => item.type === 'semantic_similarity',
    );
    expect(semanticResult).toMatchObject({ method: 'term-vector' });
    expect(semanticResult?.detail).toContain(TERM_VECTOR_LABEL);
  });
});
