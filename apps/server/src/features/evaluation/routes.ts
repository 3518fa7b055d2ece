import {
  ZAddTestCaseRequest,
  ZAddTestCaseResponse,
  ZCreateTemplateRequest,
  ZCreateTemplateResponse,
  ZEvaluationRun,
  ZEvaluationStartPayload,
  ZOwaspReport,
  ZPageQuery,
  ZQuestionGeneratorRequest,
  ZQuestionGeneratorStartResponse,
  ZQuestionGeneratorStatus,
  ZRunComparison,
  ZRunFromTemplateRequest,
  ZRunResults,
  ZRunsResponse,
  ZStartRunResponse,
  ZTemplatesResponse,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPageWithInlineScripts } from '../../platform/browser-protections';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { callerOf, fromCurrentSubaccount, publicAccess, subaccountAccess, tenantOf } from '../../platform/guard';
import { secretLimit } from '../../platform/request-limits';
import { resultsCsv, resultsReport } from './exports';
import { getGeneration, startGeneration } from './generator';
import { listTestingModels } from './models';
import { getOwaspReport } from './owasp';
import { owaspReportPage } from './owasp-export';
import * as repo from './repo';
import * as service from './service';
import { reportBrand, sharedReport, shareRun, unshareRun } from './share';
import { runEventsRoute } from './sse';
import { createTemplate, listTemplates } from './templates';
import { addTestCase } from './test-cases';

const tags = ['evaluation'];
const current = fromCurrentSubaccount();
/** Run routes find the sub-account from the run itself, so links and event streams need no header. */
export const fromRunParam = () => async (request: { params: unknown }, deps: Deps) => {
  const runId = (request.params as { runId?: string }).runId;
  if (!runId || runId.length > 64) return undefined;
  return (await repo.findRun(deps.db, runId))?.subaccountId;
};
const byRun = fromRunParam();
const ZRunParams = z.object({ runId: z.string().max(64) });

export const evaluationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/evaluation/models',
    {
      config: subaccountAccess('viewer', current),
      schema: {
        tags,
        response: { 200: z.object({ models: z.array(z.object({ value: z.string(), label: z.string() })) }) },
      },
    },
    async (request) => ({ models: await listTestingModels(deps, tenantOf(request).accountId) }),
  );

  app.get(
    '/api/templates',
    { config: subaccountAccess('viewer', current), schema: { tags, response: { 200: ZTemplatesResponse } } },
    async (request) => ({ templates: await listTemplates(deps, tenantOf(request).subaccountId) }),
  );

  app.post(
    '/api/templates',
    {
      config: subaccountAccess('member', current),
      schema: { tags, body: ZCreateTemplateRequest, response: { 201: ZCreateTemplateResponse } },
    },
    async (request, reply) => {
      const templateId = await createTemplate(deps, {
        subaccountId: tenantOf(request).subaccountId,
        userId: callerOf(request).userId,
        request: request.body,
      });
      return reply.status(201).send({ templateId });
    },
  );

  app.post(
    '/api/evaluation/test-cases',
    {
      config: subaccountAccess('member', current),
      schema: { tags, body: ZAddTestCaseRequest, response: { 200: ZAddTestCaseResponse } },
    },
    async (request) => addTestCase(deps, tenantOf(request), callerOf(request).userId, request.body),
  );

  app.post(
    '/api/questiongenerator',
    {
      config: subaccountAccess('member', current),
      schema: { tags, body: ZQuestionGeneratorRequest, response: { 202: ZQuestionGeneratorStartResponse } },
    },
    async (request, reply) => {
      const id = await startGeneration(deps, tenantOf(request), request.body);
      return reply.status(202).send({ data: { generatequestionsId: id } });
    },
  );

  app.get(
    '/api/questiongenerator/:id',
    {
      config: subaccountAccess('viewer', current),
      schema: { tags, params: z.object({ id: z.string().max(64) }), response: { 200: ZQuestionGeneratorStatus } },
    },
    async (request) => {
      const found = await getGeneration(deps, tenantOf(request).subaccountId, request.params.id);
      if (!found) throw new AppError('NOT_FOUND', 'Question generation not found');
      return found;
    },
  );

  const startRoute = (url: string, kind: service.EvaluationKind) =>
    app.post(
      url,
      {
        config: subaccountAccess('member', current),
        schema: { tags, body: ZEvaluationStartPayload, response: { 202: ZStartRunResponse } },
      },
      async (request, reply) => {
        const run = await service.startRun(deps, tenantOf(request), callerOf(request).userId, kind, request.body);
        return reply.status(202).send({ runId: run.id, evaluationId: run.evaluationId, run });
      },
    );
  startRoute('/api/evaluation/run/evaluationdata', 'chatcompletion');
  startRoute('/api/openai/assistants/run/evaluationdata', 'openai-assistants');

  app.post(
    '/api/evaluation/runs/from-template',
    {
      config: subaccountAccess('member', current),
      schema: { tags, body: ZRunFromTemplateRequest, response: { 202: ZStartRunResponse } },
    },
    async (request, reply) => {
      const run = await service.startRunFromTemplate(deps, tenantOf(request), callerOf(request).userId, request.body);
      return reply.status(202).send({ runId: run.id, evaluationId: run.evaluationId, run });
    },
  );

  app.get(
    '/api/evaluation/runs',
    {
      config: subaccountAccess('viewer', current),
      schema: {
        tags,
        querystring: ZPageQuery.extend({
          agentId: z.string().max(64).optional(),
          templateId: z.string().max(64).optional(),
        }),
        response: { 200: ZRunsResponse },
      },
    },
    async (request) => repo.listRuns(deps.db, { subaccountId: tenantOf(request).subaccountId, ...request.query }),
  );

  app.get(
    '/api/evaluation/compare',
    {
      config: subaccountAccess('viewer', current),
      schema: {
        tags,
        querystring: z.object({ base: z.string().max(64), other: z.string().max(64) }),
        response: { 200: ZRunComparison },
      },
    },
    async (request) =>
      service.compareRuns(deps, tenantOf(request).subaccountId, request.query.base, request.query.other),
  );

  app.get(
    '/api/evaluation/runs/:runId',
    {
      config: subaccountAccess('viewer', byRun),
      schema: { tags, params: ZRunParams, response: { 200: ZEvaluationRun } },
    },
    async (request) =>
      repo.runView(deps.db, await service.getRunOr404(deps, tenantOf(request).subaccountId, request.params.runId)),
  );

  app.get(
    '/api/evaluation/runs/:runId/results',
    { config: subaccountAccess('viewer', byRun), schema: { tags, params: ZRunParams, response: { 200: ZRunResults } } },
    async (request) => service.getResults(deps, tenantOf(request).subaccountId, request.params.runId),
  );

  app.get(
    '/api/evaluation/runs/:runId/owasp',
    {
      config: subaccountAccess('viewer', byRun),
      schema: { tags, params: ZRunParams, response: { 200: ZOwaspReport } },
    },
    async (request) => getOwaspReport(deps, tenantOf(request).subaccountId, request.params.runId),
  );

  app.get(
    '/api/evaluation/runs/:runId/owasp/report',
    { config: subaccountAccess('viewer', byRun), schema: { tags, params: ZRunParams } },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      const [run, report] = await Promise.all([
        service.getRunOr404(deps, subaccountId, request.params.runId),
        getOwaspReport(deps, subaccountId, request.params.runId),
      ]);
      const page = owaspReportPage(report, run);
      return sendPageWithInlineScripts(reply, page).type('text/html; charset=utf-8').send(page);
    },
  );

  app.post(
    '/api/evaluation/runs/:runId/cancel',
    {
      config: subaccountAccess('member', byRun),
      schema: { tags, params: ZRunParams, response: { 200: ZEvaluationRun } },
    },
    async (request) => service.cancelRun(deps, tenantOf(request).subaccountId, request.params.runId),
  );

  const fileName = (name: string, ext: string) =>
    `${
      name
        .replace(/[^a-z0-9-_]+/gi, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60) || 'evaluation'
    }.${ext}`;

  app.get(
    '/api/evaluation/runs/:runId/export.csv',
    { config: subaccountAccess('viewer', byRun), schema: { tags, params: ZRunParams } },
    async (request, reply) => {
      const results = await service.getResults(deps, tenantOf(request).subaccountId, request.params.runId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(results.run.name, 'csv')}"`)
        .send(resultsCsv(results));
    },
  );

  app.get(
    '/api/evaluation/runs/:runId/export.json',
    { config: subaccountAccess('viewer', byRun), schema: { tags, params: ZRunParams } },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      const [results, owasp] = await Promise.all([
        service.getResults(deps, subaccountId, request.params.runId),
        getOwaspReport(deps, subaccountId, request.params.runId),
      ]);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(results.run.name, 'json')}"`)
        .send(JSON.stringify(owasp.attacks ? { ...results, owasp } : results, null, 2));
    },
  );

  app.get(
    '/api/evaluation/runs/:runId/report',
    { config: subaccountAccess('viewer', byRun), schema: { tags, params: ZRunParams } },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      const [results, brand, owasp] = await Promise.all([
        service.getResults(deps, subaccountId, request.params.runId),
        reportBrand(deps, subaccountId),
        getOwaspReport(deps, subaccountId, request.params.runId),
      ]);
      const page = resultsReport(results, brand, false, owasp);
      return sendPageWithInlineScripts(reply, page).type('text/html; charset=utf-8').send(page);
    },
  );

  const ZShareResponse = z.object({ token: z.string(), path: z.string() });
  app.post(
    '/api/evaluation/runs/:runId/share',
    {
      config: subaccountAccess('member', byRun),
      schema: { tags, params: ZRunParams, response: { 200: ZShareResponse } },
    },
    async (request) => shareRun(deps, tenantOf(request).subaccountId, request.params.runId),
  );

  app.delete(
    '/api/evaluation/runs/:runId/share',
    { config: subaccountAccess('member', byRun), schema: { tags, params: ZRunParams } },
    async (request, reply) => {
      await unshareRun(deps, tenantOf(request).subaccountId, request.params.runId);
      return reply.status(204).send();
    },
  );

  // The share link: the branded report for anyone holding the token, until it is revoked.
  app.get(
    '/api/evaluation/shared/:token',
    {
      config: { ...publicAccess(), ...secretLimit(deps.env, 'shared-report') },
      schema: { tags, params: z.object({ token: z.string().max(64) }) },
    },
    async (request, reply) => {
      const { results, brand, owasp } = await sharedReport(deps, request.params.token);
      const page = resultsReport(results, brand, true, owasp);
      return sendPageWithInlineScripts(reply, page)
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex')
        .type('text/html; charset=utf-8')
        .send(page);
    },
  );

  runEventsRoute(app, byRun);
};
