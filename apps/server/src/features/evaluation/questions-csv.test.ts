import { questionsCsv, type TQuestion } from '@switchboard/core';
import fc from 'fast-check';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededAgency, seedAgency } from '../../seed';
import { testQuestion } from '../../testing/fixtures';
import { startTestApp, type TestApp } from '../../testing/harness';
import { parseQuestionsCsv } from './questions-csv';
import { createTemplate } from './templates';

let t: TestApp;
let agency: SeededAgency;
let other: SeededAgency;
let headers: Record<string, string>;
let viewer: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  agency = await seedAgency(t.deps.db, {
    accountName: 'Dataset Agency',
    owner: { email: 'owner@dataset.test', name: 'Owner' },
    subaccounts: ['Solar'],
    users: [{ email: 'viewer@dataset.test', name: 'Viewer', role: 'viewer' }],
  });
  other = await seedAgency(t.deps.db, {
    accountName: 'Other Dataset Agency',
    owner: { email: 'owner@other-dataset.test', name: 'Other' },
    subaccounts: ['Theirs'],
  });
  const sub = agency.subaccountIds[0] as string;
  headers = { cookie: await t.cookieFor(agency.ownerId), 'x-subaccount-id': sub };
  viewer = { cookie: await t.cookieFor(agency.userIds['viewer@dataset.test'] as string), 'x-subaccount-id': sub };
});

afterAll(async () => {
  await t?.close();
});

const secondRow = (csv: string) => (Papa.parse<string[]>(csv).data[1] ?? []) as string[];

const importCsv = (csv: string, as = headers) =>
  t.app.inject({ method: 'POST', url: '/api/evaluation/questions/import', headers: as, payload: { csv } });

describe('importing test questions from CSV', () => {
  it('reads question, expected answer and checks, with any header spelling and quoted cells', async () => {
    const csv = [
      'Question,Expected answer,Checks',
      'How much is a 4 kW system?,"Says about 6,000 pounds, installed","[{""type"":""contains"",""value"":""6,000""}]"',
      '"Line one',
      'line two",,',
    ].join('\r\n');
    const response = await importCsv(csv);
    expect(response.statusCode, response.body).toBe(200);
    const { questions } = response.json() as { questions: TQuestion[] };
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatchObject({
      text: 'How much is a 4 kW system?',
      successCriteria: 'Says about 6,000 pounds, installed',
      checks: [{ type: 'contains', value: '6,000' }],
      selected: true,
    });
    expect(questions[1]).toMatchObject({ text: 'Line one\nline two', successCriteria: '' });
    expect(questions[1]?.checks).toBeUndefined();
    expect(new Set(questions.map((question) => question.id)).size).toBe(2);
  });

  it.each([
    ['', 'The CSV is empty'],
    ['expected_answer\nHi', 'needs a "question" column'],
    ['question,expected_answer\n', 'has a header row but no questions'],
    ['question,checks\nHi,not json', 'Row 2: checks must be a JSON array'],
    ['question,checks\nHi,"[{""type"":""nope""}]"', 'Row 2: a check is not valid'],
    ['question,checks\nHi,"[{""type"":""regex"",""pattern"":""(a+)+$""}]"', 'Row 2: '],
    [
      'question,checks\nHi,"[{""type"":""json_schema"",""schema"":{""type"":12}}]"',
      'Row 2: The JSON schema is not valid',
    ],
    ['question,expected_answer\n,Something', 'Row 2: the question is empty'],
    ['question\n"never closed', 'a quoted cell is not closed'],
    ['question\nbinary\u0000data', 'NUL'],
    [`question\n${'x'.repeat(4001)}`, 'Row 2: the question is longer than 4,000 characters'],
    [`question\n${Array.from({ length: 501 }, (_, i) => `Q${i}`).join('\n')}`, 'more than 500 questions'],
  ])('answers 422 with a clear message for bad input (%#)', async (csv, message) => {
    const response = await importCsv(csv);
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(response.json().error.message).toContain(message);
  });

  it('answers 422, not 413 or 500, for a CSV over 1 MB', async () => {
    const response = await importCsv(`question\n${'"a,b",\n'.repeat(200_000)}`);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json())).toContain('larger than 1 MB');
  });

  it('never answers 500, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        try {
          parseQuestionsCsv(`question,expected_answer,checks\n${text}`);
        } catch (error) {
          expect((error as { status?: number }).status).toBe(422);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is for members: a viewer cannot import', async () => {
    const response = await importCsv('question\nHi', viewer);
    expect(response.statusCode).toBe(403);
  });
});

describe('exporting test questions as CSV', () => {
  it('writes the template questions with formulas neutralised, and reads back the same questions', async () => {
    const questions = [
      testQuestion('a', '=HYPERLINK("http://evil.test","click")', {
        successCriteria: '+1 refuses, "politely"',
        checks: [{ type: 'contains', value: '-5' }] as TQuestion['checks'],
      }),
      testQuestion('b', '@SUM(A1:A2)\nsecond line'),
    ];
    const templateId = await createTemplate(t.deps, {
      subaccountId: agency.subaccountIds[0] as string,
      userId: agency.ownerId,
      request: {
        templateName: 'Data set',
        templateData: {
          testing_model: '',
          initialMessage: '',
          shortuserDescription: '',
          conversationFlowInput: '',
          hallucinationInstruction: '',
          hallucinationChoice: null,
          customQuestions: questions,
          complianceQuestions: [],
          promptHackingQuestions: [],
          settings: {},
        } as never,
      },
    });
    const response = await t.app.inject({ url: `/api/templates/${templateId}/questions.csv`, headers: viewer });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('Data-set-questions.csv');
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('question,expected_answer,checks');
    expect(lines[1]?.startsWith(`"'=HYPERLINK(`)).toBe(true);
    expect(lines[1]).toContain(`"'+1 refuses, ""politely"""`);
    expect(response.body).toContain(`"'@SUM(A1:A2)\nsecond line"`);
    for (const cell of response.body.split(/,|\r\n/)) expect(cell).not.toMatch(/^"?[=+\-@]/);

    const back = parseQuestionsCsv(response.body);
    expect(back.map((question) => [question.text, question.successCriteria, question.checks])).toEqual(
      questions.map((question) => [question.text, question.successCriteria, question.checks]),
    );
  });

  it("answers 404 for another tenant's template", async () => {
    const theirs = await createTemplate(t.deps, {
      subaccountId: other.subaccountIds[0] as string,
      userId: other.ownerId,
      request: {
        templateName: 'Theirs',
        templateData: {
          customQuestions: [testQuestion('x', 'Secret?')],
          complianceQuestions: [],
          promptHackingQuestions: [],
        } as never,
      },
    });
    const response = await t.app.inject({ url: `/api/templates/${theirs}/questions.csv`, headers });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Secret?');
  });

  it('neutralises every formula start in any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (text, criteria) => {
        const csv = questionsCsv([testQuestion('q', text, { successCriteria: criteria })]);
        const row = secondRow(csv);
        for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 200 },
    );
  });
});
