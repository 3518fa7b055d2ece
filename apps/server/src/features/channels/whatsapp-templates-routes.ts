import {
  ZWhatsappTemplateList,
  ZWhatsappTemplateListQuery,
  ZWhatsappTemplatePreview,
  ZWhatsappTemplatePreviewRequest,
  ZWhatsappTemplateSendRequest,
  ZWhatsappTemplateSendResponse,
  ZWhatsappWindow,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { findConnection } from '../connections/repo';
import { findChannel } from './connections';
import { listWhatsappTemplates, previewWhatsappTemplate } from './whatsapp-templates';
import { sendWhatsappTemplate, whatsappWindow } from './whatsapp-templates-inbox';

const tags = ['channels'];
const ZParams = z.object({ connectionId: z.string().max(64) });
const ZThreadParams = ZParams.extend({ threadId: z.string().max(64) });

const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return (await findChannel(deps.db, id))?.connection.subaccountId ?? null;
};
/** A conversation's connection, of any kind, as the inbox's routes find it. */
const fromInboxConnection: SubaccountResolver = async (request, deps) =>
  (await findConnection(deps.db, (request.params as { connectionId?: string }).connectionId ?? ''))?.subaccountId ??
  null;

/** A WhatsApp connection's approved templates: the list, a preview for a contact, and a send from the inbox. */
export const whatsappTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/channels/:connectionId/whatsapp-templates',
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: {
        tags,
        params: ZParams,
        querystring: ZWhatsappTemplateListQuery,
        response: { 200: ZWhatsappTemplateList },
      },
    },
    async (request) =>
      listWhatsappTemplates(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.query.refresh === 'true',
      ),
  );

  app.post(
    '/api/channels/:connectionId/whatsapp-templates/preview',
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'campaigns' }),
      schema: {
        tags,
        params: ZParams,
        body: ZWhatsappTemplatePreviewRequest,
        response: { 200: ZWhatsappTemplatePreview },
      },
    },
    async (request) =>
      previewWhatsappTemplate(deps, tenantOf(request).subaccountId, request.params.connectionId, request.body),
  );

  app.get(
    '/api/connections/:connectionId/conversations/:threadId/whatsapp-window',
    {
      config: subaccountAccess('viewer', fromInboxConnection, { client: 'read' }),
      schema: { tags, params: ZThreadParams, response: { 200: ZWhatsappWindow } },
    },
    async (request) =>
      whatsappWindow(deps, tenantOf(request).subaccountId, request.params.connectionId, request.params.threadId),
  );

  app.post(
    '/api/connections/:connectionId/conversations/:threadId/whatsapp-template',
    {
      config: subaccountAccess('member', fromInboxConnection, { client: 'inbox' }),
      schema: {
        tags,
        params: ZThreadParams,
        body: ZWhatsappTemplateSendRequest,
        response: { 200: ZWhatsappTemplateSendResponse },
      },
    },
    async (request) =>
      sendWhatsappTemplate(
        deps,
        tenantOf(request).subaccountId,
        request.params.connectionId,
        request.params.threadId,
        callerOf(request).userId,
        request.body,
      ),
  );
};
