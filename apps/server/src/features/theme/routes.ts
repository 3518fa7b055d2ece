import {
  ZPatchSmsSettingsRequest,
  ZPatchSubaccountThemeRequest,
  ZSmsSettings,
  ZSubaccountTheme,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import { fromParam, subaccountAccess, tenantOf } from '../../platform/guard';
import * as service from './service';

const tags = ['theme'];

export const themeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const ZConnectParams = z.object({ connectId: z.string().max(64) });
  const ZSubaccountParams = z.object({ subaccountId: z.string().max(64) });

  app.get(
    '/api/sms/:connectId/settings',
    {
      config: subaccountAccess('viewer', fromConnectId()),
      schema: { tags, params: ZConnectParams, response: { 200: ZSmsSettings } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getSmsSettings(db, tenantOf(request).subaccountId);
    },
  );

  app.patch(
    '/api/sms/:connectId/settings',
    {
      config: subaccountAccess('member', fromConnectId()),
      schema: { tags, params: ZConnectParams, body: ZPatchSmsSettingsRequest, response: { 200: ZSmsSettings } },
    },
    async (request) => service.patchSmsSettings(db, tenantOf(request).subaccountId, request.body),
  );

  app.get(
    '/api/subaccounts/:subaccountId/theme',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId')),
      schema: { tags, params: ZSubaccountParams, response: { 200: ZSubaccountTheme } },
    },
    async (request) => service.getTheme(db, tenantOf(request).subaccountId),
  );

  app.patch(
    '/api/subaccounts/:subaccountId/theme',
    {
      config: subaccountAccess('member', fromParam('subaccountId')),
      schema: {
        tags,
        params: ZSubaccountParams,
        body: ZPatchSubaccountThemeRequest,
        response: { 200: ZSubaccountTheme },
      },
    },
    async (request) => service.patchTheme(db, tenantOf(request).subaccountId, request.body),
  );
};
