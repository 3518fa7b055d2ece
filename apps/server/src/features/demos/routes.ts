import {
  demoTierFor,
  ZCheckEmbeddableRequest,
  ZCheckEmbeddableResponse,
  ZCreateDemoRequest,
  ZDemo,
  ZDemoChatRequest,
  ZDemoChatResponse,
  ZDemoListResponse,
  ZPageQuery,
  ZPublicDemo,
  ZUpdateDemoRequest,
} from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendFramedPage } from '../../platform/browser-protections';
import type { Deps } from '../../platform/deps';
import {
  callerOf,
  fromCurrentSubaccount,
  publicAccess,
  type SubaccountResolver,
  subaccountAccess,
  tenantOf,
} from '../../platform/guard';
import { assertDemoTier } from '../billing/limits';
import { demoChat } from './chat';
import { checkEmbeddable } from './embeddable';
import { demoFramePage } from './frame';
import * as repo from './repo';
import * as service from './service';

const tags = ['demos'];
const ZDemoParams = z.object({ demoId: z.string().max(64) });

/** The sub-account of the demo named by :demoId (unknown ids answer 404). */
const fromDemo = (): SubaccountResolver => async (request: FastifyRequest, deps: Deps) => {
  const demoId = (request.params as { demoId?: string }).demoId;
  if (!demoId) return undefined;
  return (await repo.findDemo(deps.db, demoId))?.subaccountId;
};

/** The origin of the page that will frame the website (the app itself). */
const framerOrigin = (request: FastifyRequest, deps: Deps) => {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && /^https?:\/\/[^/]+$/.test(origin)) return origin;
  return deps.publicUrl;
};

export const demosRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '/api/demos',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, querystring: ZPageQuery, response: { 200: ZDemoListResponse } },
    },
    async (request) => service.listDemos(db, tenantOf(request).subaccountId, request.query.page, request.query.limit),
  );

  app.post(
    '/api/demos',
    {
      config: subaccountAccess('member', fromCurrentSubaccount()),
      schema: { tags, body: ZCreateDemoRequest, response: { 201: ZDemo } },
    },
    async (request, reply) => {
      await assertDemoTier(app.deps, tenantOf(request).accountId, demoTierFor(request.body));
      const demo = await service.createDemo(db, tenantOf(request), callerOf(request).userId, request.body);
      return reply.status(201).send(demo);
    },
  );

  app.get(
    '/api/demos/:demoId',
    {
      config: subaccountAccess('viewer', fromDemo()),
      schema: { tags, params: ZDemoParams, response: { 200: ZDemo } },
    },
    async (request) => service.getDemo(db, tenantOf(request).subaccountId, request.params.demoId),
  );

  app.patch(
    '/api/demos/:demoId',
    {
      config: subaccountAccess('member', fromDemo()),
      schema: { tags, params: ZDemoParams, body: ZUpdateDemoRequest, response: { 200: ZDemo } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const current = await service.getDemo(db, tenant.subaccountId, request.params.demoId);
      await assertDemoTier(app.deps, tenant.accountId, demoTierFor({ ...current, ...request.body }));
      return service.updateDemo(db, tenant.subaccountId, request.params.demoId, request.body);
    },
  );

  app.post(
    '/api/demos/:demoId/reset-count',
    {
      config: subaccountAccess('member', fromDemo()),
      schema: { tags, params: ZDemoParams, response: { 200: ZDemo } },
    },
    async (request) => service.resetRequestCount(db, tenantOf(request).subaccountId, request.params.demoId),
  );

  app.delete(
    '/api/demos/:demoId',
    {
      config: subaccountAccess('member', fromDemo()),
      schema: { tags, params: ZDemoParams },
    },
    async (request, reply) => {
      await service.deleteDemo(db, tenantOf(request).subaccountId, request.params.demoId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/shared/demos/:demoId',
    {
      config: { ...publicAccess(), rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags, params: ZDemoParams, response: { 200: ZPublicDemo } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getPublicDemo(db, request.params.demoId);
    },
  );

  app.post(
    '/api/check-embeddable',
    {
      config: { ...publicAccess(), rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, body: ZCheckEmbeddableRequest, response: { 200: ZCheckEmbeddableResponse } },
    },
    async (request) => checkEmbeddable(app.deps, request.body.url, framerOrigin(request, app.deps)),
  );

  app.post(
    '/api/demo-chat',
    {
      config: {
        ...publicAccess(),
        rateLimit: { max: app.deps.env.DEMO_CHAT_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' },
      },
      schema: { tags, body: ZDemoChatRequest, response: { 200: ZDemoChatResponse } },
    },
    async (request) => demoChat(app.deps, request.body),
  );

  /** The professional widget's frame page for a demo (see frame.ts). */
  app.get(
    '/demo-frame/:demoId',
    { config: publicAccess(), schema: { tags, params: ZDemoParams, hide: true } },
    async (request, reply) => {
      const demo = await service.getPublicDemo(db, request.params.demoId);
      const page = demoFramePage(demo);
      // Shown by this app's own demo pages only.
      return sendFramedPage(reply, page, ["'self'"])
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(page);
    },
  );
};
