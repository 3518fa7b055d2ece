import {
  CHECKS_PER_QUESTION_MAX,
  QUESTIONS_CSV_MAX_ROWS,
  type TQuestion,
  uncsvCell,
  ZQuestion,
  ZQuestionCheck,
} from '@switchboard/core';
import { z } from 'zod';
import { papa } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { newKey } from '../../platform/ids';
import { regexProblem } from './checks';
import { schemaProblem } from './json-schema-check';

/**
 * Reading test questions from a CSV (`question`, `expected_answer`, `checks`): every problem is a
 * 422 naming the row and column, and nothing is imported unless every row is good.
 */

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message, { field: 'csv' });

/** A header name as compared: "Expected answer", "expected_answer" and "EXPECTED-ANSWER" are one. */
const columnKey = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');

const HEADERS: Record<string, 'question' | 'expected' | 'checks'> = {
  question: 'question',
  questions: 'question',
  expected_answer: 'expected',
  expected: 'expected',
  success_criteria: 'expected',
  checks: 'checks',
};

const ZChecks = z.array(ZQuestionCheck).max(CHECKS_PER_QUESTION_MAX);

const checksOf = (cell: string, row: number) => {
  if (!cell.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    throw invalid(`Row ${row}: checks must be a JSON array, for example [{"type":"contains","value":"refund"}].`);
  }
  const parsed = ZChecks.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
    throw invalid(`Row ${row}: a check is not valid${where}: ${issue?.message ?? 'unknown check'}.`);
  }
  for (const check of parsed.data) {
    const problem =
      check.type === 'regex'
        ? regexProblem(check.pattern, check.ignoreCase)
        : check.type === 'json_schema'
          ? schemaProblem(check.schema)
          : null;
    if (problem) throw invalid(`Row ${row}: ${problem}.`);
  }
  return parsed.data.length ? parsed.data : undefined;
};

export const parseQuestionsCsv = (csv: string): TQuestion[] => {
  const text = csv.replace(/^\uFEFF/, '');
  if (!text.trim())
    throw invalid('The CSV is empty. Use a header row "question,expected_answer,checks" and one question per row.');
  if (text.includes('\u0000')) throw invalid('This is not a CSV text file (it holds binary data).');
  const parsed = papa().parse<string[]>(text, { skipEmptyLines: 'greedy', preview: QUESTIONS_CSV_MAX_ROWS + 2 });
  const broken = parsed.errors.find((error) => error.type === 'Quotes' || error.code === 'InvalidQuotes');
  if (broken) throw invalid(`Row ${(broken.row ?? 0) + 1}: a quoted cell is not closed.`);
  const [header = [], ...rows] = parsed.data.filter((row) => Array.isArray(row));
  const columns = header.map((name) => HEADERS[columnKey(String(name))] ?? null);
  const at = (kind: 'question' | 'expected' | 'checks') => columns.indexOf(kind);
  if (at('question') < 0)
    throw invalid('The CSV needs a "question" column in its header row (question,expected_answer,checks).');
  if (!rows.length) throw invalid('The CSV has a header row but no questions.');
  if (rows.length > QUESTIONS_CSV_MAX_ROWS) {
    throw invalid(`The CSV has more than ${QUESTIONS_CSV_MAX_ROWS} questions. Split it into smaller files.`);
  }
  const batch = newKey(6);
  return rows.map((cells, index) => {
    const row = index + 2;
    const cell = (kind: 'question' | 'expected' | 'checks') => {
      const position = at(kind);
      return position < 0 ? '' : uncsvCell(String(cells[position] ?? '').replace(/\r\n?/g, '\n')).trim();
    };
    const question = cell('question');
    const expected = cell('expected');
    if (!question) throw invalid(`Row ${row}: the question is empty.`);
    if (question.length > 4000) throw invalid(`Row ${row}: the question is longer than 4,000 characters.`);
    if (expected.length > 4000) throw invalid(`Row ${row}: the expected answer is longer than 4,000 characters.`);
    return ZQuestion.parse({
      id: `csv-${batch}-${index + 1}`,
      text: question,
      selected: true,
      successCriteria: expected,
      checks: checksOf(cell('checks'), row),
    });
  });
};
