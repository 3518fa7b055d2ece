import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { type SeededAgency, seedAgency } from '../../seed';
import { testQuestion, useCompatibleProvider } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { type StubLlm, startStubLlm } from '../../testing/stub-llm';
import { evaluationTemplates } from './schema';

let t: TestApp;
let stub: StubLlm;
let agency: SeededAgency;
let headers: Record<string, string>;

beforeAll(async () => {
  stub = await startStubLlm();
  t = await startTestApp({ FREE_PLAN_CREDITS: '1000000', JOB_POLL_MS: '50', PRIVATE_URL_ALLOWLIST: '127.0.0.1' });
  agency = await seedAgency(t.deps.db, {
    accountName: 'Template Agency',
    owner: { email: 'tpl@eval.test', name: 'Owner' },
    subaccounts: ['Solar', 'Dental'],
    users: [{ email: 'viewer@eval.test', name: 'Viewer', role: 'viewer' }],
  });
  await useCompatibleProvider(t.deps.db, agency.accountId, stub.url);
  headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': agency.subaccountIds[0] as string };
});

afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('templates', () => {
  it('saves and lists templates of the sub-account; older records with model read as testing_model', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/templates',
      headers,
      payload: {
        templateName: 'Solar launch',
        templateData: {
          testing_model: 'gpt-4o',
          initialMessage: 'Hi',
          shortuserDescription: 'Wants solar',
          conversationFlowInput: '',
          hallucinationInstruction: '',
          hallucinationChoice: null,
          customQuestions: [testQuestion('a', 'Hello?')],
          complianceQuestions: [],
          promptHackingQuestions: [],
          settings: {},
        },
      },
    });
    expect(saved.statusCode).toBe(201);
    await t.deps.db.insert(evaluationTemplates).values({
      id: newId('template'),
      subaccountId: agency.subaccountIds[0] as string,
      name: 'Old one',
      data: { model: 'gpt-3.5-turbo', initialMessage: 'Old' },
    });
    const list = await t.app.inject({ url: '/api/templates', headers });
    const body = list.json() as { templates: { templateName: string; templateData: { testing_model: string } }[] };
    expect(body.templates.map((item) => [item.templateName, item.templateData.testing_model]).sort()).toEqual([
      ['Old one', 'gpt-3.5-turbo'],
      ['Solar launch', 'gpt-4o'],
    ]);
    const other = await t.app.inject({
      url: '/api/templates',
      headers: { ...headers, 'x-subaccount-id': agency.subaccountIds[1] as string },
    });
    expect((other.json() as { templates: unknown[] }).templates).toEqual([]);
  });

  it('refuses a blank template name and a viewer', async () => {
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/templates',
      headers,
      payload: { templateName: '   ', templateData: {} },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toMatchObject({ error: { field: 'body.templateName' } });
    const viewer = await t.app.inject({
      method: 'POST',
      url: '/api/templates',
      headers: { ...headers, cookie: await t.cookieFor(agency.userIds['viewer@eval.test'] as string) },
      payload: { templateName: 'x', templateData: {} },
    });
    expect(viewer.statusCode).toBe(403);
  });
});

describe('question generator', () => {
  it('generates questions per category with the testing model, polled until complete', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/questiongenerator',
      headers,
      payload: {
        evaluation_type: 'questiongenerator',
        generatedIndustryCount: 2,
        generatedAngryCount: 0,
        generatedComplianceCount: 1,
        generatedPromptHackingCount: 0,
        customPrompts: [{ id: 'c1', count: '75', label: 'Warranty' }],
        prompt: 'Solar sales agent',
        testing_model: 'compatible:stub-model',
      },
    });
    expect(started.statusCode).toBe(202);
    const id = (started.json() as { data: { generatequestionsId: string } }).data.generatequestionsId;
    let status = '';
    let results: Record<string, unknown[]> = {};
    for (let attempt = 0; attempt < 100 && status !== 'complete'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const polled = await t.app.inject({ url: `/api/questiongenerator/${id}`, headers });
      const body = polled.json() as { data: { status: string; results: { results: Record<string, unknown[]> } } };
      status = body.data.status;
      results = body.data.results.results;
    }
    expect(status).toBe('complete');
    expect(Object.keys(results).sort()).toEqual(['Warranty', 'compliance', 'industry']);
    expect(results.industry).toHaveLength(2);
    // A custom count above 50 is capped at 50.
    expect(results.Warranty).toHaveLength(50);
    expect(results.industry?.[0]).toMatchObject({ criteria: 'Criteria 1' });
  });

  it('rejects counts outside 0-20', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/questiongenerator',
      headers,
      payload: {
        evaluation_type: 'questiongenerator',
        generatedIndustryCount: 21,
        generatedAngryCount: 0,
        generatedComplianceCount: 0,
        generatedPromptHackingCount: 0,
        customPrompts: [],
        prompt: '',
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { field: 'body.generatedIndustryCount' } });
  });
});
