import { ZCampaign, ZCampaignInput, ZCampaignList, ZCampaignTimeline } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
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
      config: subaccountAccess('viewer', fromConnection),
      schema: { tags, params: ZParams, response: { 200: ZCampaignList } },
    },
    async (request) => service.listCampaigns(deps, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.post(
    base,
    {
      config: subaccountAccess('member', fromConnection),
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
      config: subaccountAccess('viewer', fromConnection),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaign } },
    },
    async (request) => service.getCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.put(
    `${base}/:campaignId`,
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZCampaignParams, body: ZCampaignInput, response: { 200: ZCampaign } },
    },
    async (request) =>
      service.updateCampaign(deps, tenantOf(request).subaccountId, request.params.campaignId, request.body),
  );

  app.delete(
    `${base}/:campaignId`,
    { config: subaccountAccess('member', fromConnection), schema: { tags, params: ZCampaignParams } },
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
        config: subaccountAccess('member', fromConnection),
        schema: { tags, params: ZCampaignParams, response: { 200: ZCampaign } },
      },
      async (request) => run(deps, tenantOf(request).subaccountId, request.params.campaignId),
    );
  }

  app.get(
    `${base}/:campaignId/timeline`,
    {
      config: subaccountAccess('viewer', fromConnection),
      schema: { tags, params: ZCampaignParams, response: { 200: ZCampaignTimeline } },
    },
    async (request) => service.campaignTimeline(deps, tenantOf(request).subaccountId, request.params.campaignId),
  );

  app.get(
    `${base}/:campaignId/export.csv`,
    { config: subaccountAccess('viewer', fromConnection), schema: { tags, params: ZCampaignParams } },
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
};
