import {
  ZAgent,
  ZAgentBuildRequest,
  ZAgentBuildResponse,
  ZAgentJobResponse,
  ZAgentListResponse,
  ZBuild,
  ZBuildListResponse,
  ZCreateAgentRequest,
  ZModelChoicesResponse,
  ZPageQuery,
  ZUpdateAgentRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import {
  fromCurrentSubaccount,
  fromParam,
  type SubaccountResolver,
  subaccountAccess,
  tenantOf,
} from '../../platform/guard';
import { enqueueJob, getJob } from '../../platform/jobs';
import { listModelChoices } from '../llm/gateway';
import { setAgentCounter } from '../tenancy/repo';
import { AGENT_BUILD_JOB, pickModel } from './builder';
import { findAgentCached, listenForAgentChanges, publishAgentChange } from './cache';
import * as repo from './repo';
import * as service from './service';

const tags = ['agents'];
const ZAgentParams = z.object({ agentId: z.string().max(64) });

/** The sub-account an agent belongs to (unknown ids answer 404 through the guard). */
export const fromAgentParam =
  (param = 'agentId'): SubaccountResolver =>
  async (request, deps) => {
    const id = (request.params as Record<string, string | undefined>)[param];
    if (!id) return undefined;
    const agent = await findAgentCached(deps.db, id);
    if (!agent) throw new AppError('AGENT_NOT_FOUND', 'The agent does not exist or was deleted.');
    return agent.subaccountId;
  };

const fromJobParam = (): SubaccountResolver => async (request, deps) => {
  const id = (request.params as { jobId?: string }).jobId ?? '';
  const job = await getJob(deps, id);
  if (!job || job.type !== AGENT_BUILD_JOB || !job.subaccountId) {
    throw new AppError('BUILDER_JOB_NOT_FOUND', 'Builder job not found');
  }
  return job.subaccountId;
};

export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  setAgentCounter(repo.countAgents);
  const stopListening = listenForAgentChanges(deps.bus);
  app.addHook('onClose', async () => stopListening());

  app.get(
    '/api/agents',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount(), { client: 'read' }),
      schema: { tags, querystring: ZPageQuery, response: { 200: ZAgentListResponse } },
    },
    async (request) =>
      service.listAgents(deps.db, tenantOf(request).subaccountId, request.query.page, request.query.limit),
  );

  app.get(
    '/api/subaccounts/:subaccountId/agents',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId'), { client: 'read' }),
      schema: {
        tags,
        params: z.object({ subaccountId: z.string().max(64) }),
        querystring: ZPageQuery,
        response: { 200: ZAgentListResponse },
      },
    },
    async (request) =>
      service.listAgents(deps.db, tenantOf(request).subaccountId, request.query.page, request.query.limit),
  );

  app.post(
    '/api/agents',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, body: ZCreateAgentRequest, response: { 201: ZAgent } },
    },
    async (request, reply) => reply.status(201).send(await service.createAgent(deps, tenantOf(request), request.body)),
  );

  app.get(
    '/api/agents/:agentId',
    {
      config: subaccountAccess('viewer', fromAgentParam(), { client: 'read' }),
      schema: { tags, params: ZAgentParams, response: { 200: ZAgent } },
    },
    async (request) =>
      service.agentView(await service.requireAgent(deps.db, tenantOf(request), request.params.agentId)),
  );

  app.patch(
    '/api/agents/:agentId',
    {
      config: subaccountAccess('member', fromAgentParam(), { client: 'editAgents' }),
      schema: { tags, params: ZAgentParams, body: ZUpdateAgentRequest, response: { 200: ZAgent } },
    },
    async (request) => {
      const agent = await service.updateAgent(deps.db, tenantOf(request), request.params.agentId, request.body);
      await publishAgentChange(deps.bus, request.params.agentId);
      return agent;
    },
  );

  app.post(
    '/api/agents/:agentId/duplicate',
    {
      config: subaccountAccess('member', fromAgentParam()),
      schema: { tags, params: ZAgentParams, response: { 201: ZAgent } },
    },
    async (request, reply) =>
      reply.status(201).send(await service.duplicateAgent(deps, tenantOf(request), request.params.agentId)),
  );

  app.delete(
    '/api/agents/:agentId',
    { config: subaccountAccess('member', fromAgentParam()), schema: { tags, params: ZAgentParams } },
    async (request, reply) => {
      await service.deleteAgent(deps.db, tenantOf(request), request.params.agentId);
      await publishAgentChange(deps.bus, request.params.agentId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/builds',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, querystring: ZPageQuery, response: { 200: ZBuildListResponse } },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { items, total } = await repo.listAgents(deps.db, tenantOf(request).subaccountId, page, limit);
      return { builds: items.map(service.buildView), total: Number(total), page, limit };
    },
  );

  app.get(
    '/api/builds/:buildId',
    {
      config: subaccountAccess('viewer', fromAgentParam('buildId')),
      schema: { tags, params: z.object({ buildId: z.string().max(64) }), response: { 200: ZBuild } },
    },
    async (request) =>
      service.buildView(await service.requireAgent(deps.db, tenantOf(request), request.params.buildId)),
  );

  app.post(
    '/api/agent/build',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, body: ZAgentBuildRequest, response: { 202: ZAgentBuildResponse } },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      // Refused at once when the plan has no room, before a job or a model call is made.
      await service.assertCanAddAgent(deps, tenant.accountId, tenant.subaccountId);
      if (request.body.provider || request.body.model) await pickModel(deps, tenant.accountId, request.body);
      const jobId = await enqueueJob(deps, {
        type: AGENT_BUILD_JOB,
        payload: request.body,
        accountId: tenant.accountId,
        subaccountId: tenant.subaccountId,
      });
      return reply.status(202).send({ jobId });
    },
  );

  app.get(
    '/api/agent/jobs/:jobId',
    {
      config: subaccountAccess('viewer', fromJobParam()),
      schema: { tags, params: z.object({ jobId: z.string().max(64) }), response: { 200: ZAgentJobResponse } },
    },
    async (request, reply) => {
      const job = await getJob(deps, request.params.jobId);
      if (!job) throw new AppError('BUILDER_JOB_NOT_FOUND', 'Builder job not found');
      reply.header('cache-control', 'no-store');
      return {
        jobId: job.id,
        status: job.status,
        result: (job.result as { status: string; data: unknown } | null) ?? null,
        error: job.error,
      };
    },
  );

  app.get(
    '/api/models',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount(), { client: 'read' }),
      schema: { tags, response: { 200: ZModelChoicesResponse } },
    },
    async (request) => ({ models: await listModelChoices(deps, tenantOf(request).accountId) }),
  );
};
