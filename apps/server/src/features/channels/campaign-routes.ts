import {
  ZCampaign,
  ZCampaignAudienceSize,
  ZCampaignConversion,
  ZCampaignConversionInput,
  ZCampaignEstimate,
  ZCampaignInput,
  ZCampaignList,
  ZCampaignReplies,
  ZCampaignTestSendRequest,
  ZCampaignTestSendResponse,
  ZCampaignTimeline,
  ZCampaignTracking,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicAccess, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { campaignAudienceBreakdown, campaignEstimate, testSendCampaign } from './campaign-preflight';
import { campaignReplies, campaignTracking, cloneCampaign, followLink, recordConversion } from './campaign-tracking';
import * as service from './campaigns';
import { findChannel } from './connections';

const tags = ['campaigns'];
const ZParams = z.object({ connectionId: z.string().max(64) });
const ZCampaignParams = ZParams.extend({ campaignId: z.string().max(64) });

const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return (await findChannel(deps.db, id))?.connection.subaccountId ?? null;
};

/** SMS and WhatsApp campaigns of a connection: edit, start, pause, resume, cancel, retry unsent, figures, export. */
export const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const base = '/api/channels/:connectionId/campaigns';

  app.get(
    base,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZParams, response: { 200: ZCampaignList } },
    },
    async (request) => service.listCampaigns(deps, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.post(
    base,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZParams, body: ZCampaignInput, response: { 201: ZCampaign } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await service.createCampaign(deps, tenantOf(request).subaccountId, request.params.connectionId, request.body),
        ),
  );

  app.get(
    `${base}/:campaignId`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaign } },
    },
    async (request) => service.getCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.put(
    `${base}/:campaignId`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, body: ZCampaignInput, response: { 200: ZCampaign } },
    },
    async (request) =>
      service.updateCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId, request.body),
  );

  app.delete(
    `${base}/:campaignId`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams },
    },
    async (request, reply) => {
      await service.deleteCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId);
      return reply.status(204).send();
    },
  );

  const actions = {
    start: service.startCampaign,
    pause: service.pauseCampaign,
    resume: service.resumeCampaign,
    cancel: service.cancelCampaign,
    'retry-unsent': service.retryUnsent,
  } as const;
  for (const [action, run] of Object.entries(actions)) {
    app.post(
      `${base}/:campaignId/${action}`,
      {
        config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
        schema: { tags, params: ZCampaignParams, response: { 200: ZCampaign } },
      },
      async (request) => run(deps, tenantOf(request).subaccountId, request.params.campaignId),
    );
  }

  app.get(
    `${base}/:campaignId/audience`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignAudienceSize } },
    },
    async (request) => campaignAudienceBreakdown(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.get(
    `${base}/:campaignId/estimate`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignEstimate } },
    },
    async (request) => campaignEstimate(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.post(
    `${base}/:campaignId/test-send`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: {
        tags,
        params: ZCampaignParams,
        body: ZCampaignTestSendRequest,
        response: { 200: ZCampaignTestSendResponse },
      },
    },
    async (request) =>
      testSendCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId, request.body.to),
  );

  app.get(
    `${base}/:campaignId/timeline`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignTimeline } },
    },
    async (request) => service.campaignTimeline(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.get(
    `${base}/:campaignId/export.csv`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams },
    },
    async (request, reply) => {
      const { name, csv } = await service.exportCampaignCsv(
        deps,
        tenantOf(request).subaccountId,
        request.params.campaignId,
      );
      const file = `${
        name
          .replace(/[^A-Za-z0-9 _-]+/g, '')
          .trim()
          .replace(/\s+/g, '-') || 'campaign'
      }.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    `${base}/:campaignId/tracking`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignTracking } },
    },
    async (request) => campaignTracking(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.get(
    `${base}/:campaignId/replies`,
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignReplies } },
    },
    async (request) => campaignReplies(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.post(
    `${base}/:campaignId/clone`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: { tags, params: ZCampaignParams, response: { 201: ZCampaign } },
    },
    async (request, reply) =>
      reply.status(201).send(await cloneCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId)),
  );

  app.post(
    `${base}/:campaignId/conversions`,
    {
      config: subaccountAccess('member', fromConnection, { client: 'campaigns' }),
      schema: {
        tags,
        params: ZCampaignParams,
        body: ZCampaignConversionInput,
        response: { 200: ZCampaignConversion, 201: ZCampaignConversion },
      },
    },
    async (request, reply) => {
      const result = await recordConversion(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.params.campaignId,
        request.body,
      );
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  // A campaign's short link: counted, then sent on to the address stored with it (never one from the request).
  app.get(
    '/l/:code',
    {
      config: { ...publicAccess(), rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { hide: true, params: z.object({ code: z.string().max(64) }) },
    },
    async (request, reply) => {
      const url = await followLink(deps, request.params.code, request.method === 'HEAD' ? 'HEAD' : 'GET');
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (!url)
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>Link not found</h1><p>This link does not exist or is no longer available.</p></body></html>',
          );
      return reply.redirect(url, 302);
    },
  );
};
