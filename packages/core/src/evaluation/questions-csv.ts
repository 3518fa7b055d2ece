import { z } from 'zod';
import { type TQuestion, ZQuestion } from './schemas';

/**
 * Test questions as CSV, to bring a data set in or take it out: one row per question with the
 * columns `question`, `expected_answer` (the question's success criteria: what a right answer
 * says) and `checks` (a JSON array of checks, the same as in the editor).
 */

export const QUESTIONS_CSV_COLUMNS = ['question', 'expected_answer', 'checks'] as const;
/** The largest CSV an import takes, in characters (about 1 MB). */
export const QUESTIONS_CSV_MAX_CHARS = 1_000_000;
/** Rows an import takes: a template holds at most 500 questions per category. */
export const QUESTIONS_CSV_MAX_ROWS = 500;

export const ZImportQuestionsRequest = z.object({
  csv: z.string().max(QUESTIONS_CSV_MAX_CHARS, 'The CSV is larger than 1 MB. Split it into smaller files.'),
});
export type TImportQuestionsRequest = z.infer<typeof ZImportQuestionsRequest>;

export const ZImportQuestionsResponse = z.object({ questions: z.array(ZQuestion) });
export type TImportQuestionsResponse = z.infer<typeof ZImportQuestionsResponse>;

/** Cells a spreadsheet would run as a formula start with one of these; they are written after a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;

export const csvCell = (value: string): string => {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** Undoes the quote `csvCell` put before a formula-like cell, so an export imports as it was. */
export const uncsvCell = (value: string): string => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

/** The questions as a CSV file (CRLF lines, a header row). */
export const questionsCsv = (questions: TQuestion[]): string =>
  `${[
    QUESTIONS_CSV_COLUMNS.join(','),
    ...questions.map((question) =>
      [question.text, question.successCriteria, question.checks?.length ? JSON.stringify(question.checks) : '']
        .map(csvCell)
        .join(','),
    ),
  ].join('\r\n')}\r\n`;
