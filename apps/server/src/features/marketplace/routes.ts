import {
  dailyLimitMessage,
  MARKETPLACE_AVATARS,
  MARKETPLACE_IMAGES,
  ZCreateProjectRequest,
  ZCreateProjectResponse,
  ZDailyLimitResponse,
  ZImageList,
  ZProject,
  ZProjectListQuery,
  ZProjectListResponse,
  ZRespondToProjectRequest,
  ZRespondToProjectResponse,
  ZUpdateProjectRequest,
  ZUserProfile,
  ZUserProfileRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  callerOf,
  fromCurrentSubaccount,
  publicAccess,
  subaccountAccess,
  tenantOf,
  userAccess,
} from '../../platform/guard';
import { originOf } from '../../platform/http';
import { newSupportId } from '../../platform/ids';
import type { Mailer } from '../../platform/mailer';
import * as service from './service';

const tags = ['marketplace'];
const ZProjectParams = z.object({ projectId: z.string().max(64) });

export const marketplaceRoutes =
  (mailer: Mailer): FastifyPluginAsyncZod =>
  async (app) => {
    const { deps } = app;

    // The pictures shipped with the product (apps/web/public/marketplace); the wizard shows them
    // before sign-in, so these two lists are public.
    app.get(
      '/api/marketplace/marketplace-images',
      { config: publicAccess(), schema: { tags, response: { 200: ZImageList } } },
      async () => MARKETPLACE_IMAGES,
    );
    app.get(
      '/api/avatars',
      { config: publicAccess(), schema: { tags, response: { 200: ZImageList } } },
      async () => MARKETPLACE_AVATARS,
    );

    app.get(
      '/api/marketplace/projects',
      {
        config: subaccountAccess('viewer', fromCurrentSubaccount()),
        schema: { tags, querystring: ZProjectListQuery, response: { 200: ZProjectListResponse } },
      },
      async (request) => service.listProjects(deps, callerOf(request), tenantOf(request), request.query),
    );

    app.post(
      '/api/marketplace/projects',
      {
        config: subaccountAccess('member', fromCurrentSubaccount()),
        schema: {
          tags,
          body: ZCreateProjectRequest,
          response: { 201: ZCreateProjectResponse, 429: ZDailyLimitResponse },
        },
      },
      async (request, reply) => {
        const result = await service.createProject(deps, callerOf(request), tenantOf(request), request.body);
        if (result.kind === 'limit') {
          const message = dailyLimitMessage(result.dailyLimit, result.projectsToday);
          const supportId = newSupportId();
          request.log.info({ supportId, code: 'RATE_LIMIT_EXCEEDED', status: 429 }, message);
          return reply.status(429).send({
            error: { code: 'RATE_LIMIT_EXCEEDED', message, support_id: supportId },
            dailyLimitReached: true as const,
            projectsToday: result.projectsToday,
            dailyLimit: result.dailyLimit,
          });
        }
        return reply.status(201).send({
          project: result.project,
          projectsToday: result.projectsToday,
          dailyLimit: result.dailyLimit,
        });
      },
    );

    app.get(
      '/api/marketplace/projects/:projectId',
      {
        config: subaccountAccess('viewer', fromCurrentSubaccount()),
        schema: { tags, params: ZProjectParams, response: { 200: ZProject } },
      },
      async (request) => service.getProject(deps, callerOf(request), request.params.projectId),
    );

    app.patch(
      '/api/marketplace/projects/:projectId',
      {
        config: subaccountAccess('member', fromCurrentSubaccount()),
        schema: { tags, params: ZProjectParams, body: ZUpdateProjectRequest, response: { 200: ZProject } },
      },
      async (request) =>
        service.updateProject(deps, callerOf(request), tenantOf(request), request.params.projectId, request.body),
    );

    app.delete(
      '/api/marketplace/projects/:projectId',
      {
        config: subaccountAccess('member', fromCurrentSubaccount()),
        schema: { tags, params: ZProjectParams, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.deleteProject(deps, callerOf(request), request.params.projectId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/marketplace/projects/:projectId/respond',
      {
        config: {
          ...subaccountAccess('member', fromCurrentSubaccount()),
          rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (request) => `mkt-respond:${request.ip}` },
        },
        schema: {
          tags,
          params: ZProjectParams,
          body: ZRespondToProjectRequest,
          response: { 200: ZRespondToProjectResponse },
        },
      },
      async (request) =>
        service.respondToProject(
          deps,
          mailer,
          callerOf(request),
          tenantOf(request),
          request.params.projectId,
          request.body.message,
          originOf(request, deps.env),
        ),
    );

    app.get(
      '/api/userprofile',
      { config: userAccess({ sessionOnly: true }), schema: { tags, response: { 200: ZUserProfile } } },
      async (request) => service.getProfile(deps, callerOf(request)),
    );

    app.post(
      '/api/userprofile',
      {
        config: userAccess({ sessionOnly: true }),
        schema: { tags, body: ZUserProfileRequest, response: { 200: ZUserProfile } },
      },
      async (request) => service.saveProfile(deps, callerOf(request), request.body),
    );
  };
