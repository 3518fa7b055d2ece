import {
  QUESTIONS_CSV_MAX_CHARS,
  questionsCsv,
  ZImportQuestionsRequest,
  ZImportQuestionsResponse,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { fromCurrentSubaccount, subaccountAccess, tenantOf } from '../../platform/guard';
import { parseQuestionsCsv } from './questions-csv';
import { findTemplate } from './templates';

const tags = ['evaluation'];
const current = fromCurrentSubaccount();

/** Test questions in and out as CSV: an import for the editor, and a template's questions as a file. */
export const evaluationDatasetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/evaluation/questions/import',
    {
      config: subaccountAccess('member', current),
      // A CSV at its limit grows when written as a JSON string (quotes and line breaks are escaped);
      // the limit itself is checked by the schema, with its own message.
      bodyLimit: QUESTIONS_CSV_MAX_CHARS * 4,
      schema: { tags, body: ZImportQuestionsRequest, response: { 200: ZImportQuestionsResponse } },
    },
    async (request) => ({ questions: parseQuestionsCsv(request.body.csv) }),
  );

  app.get(
    '/api/templates/:templateId/questions.csv',
    {
      config: subaccountAccess('viewer', current),
      schema: { tags, params: z.object({ templateId: z.string().max(100) }) },
    },
    async (request, reply) => {
      const template = await findTemplate(deps, tenantOf(request).subaccountId, request.params.templateId);
      if (!template) throw new AppError('NOT_FOUND', 'Template not found', { field: 'templateId' });
      const name = template.templateName.replace(/[^\w.-]+/g, '-').slice(0, 80) || 'questions';
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}-questions.csv"`)
        .send(questionsCsv(template.templateData.customQuestions));
    },
  );
};
