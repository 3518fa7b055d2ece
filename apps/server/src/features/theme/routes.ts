import {
  type TRole,
  ZPatchSmsSettingsRequest,
  ZPatchSubaccountThemeRequest,
  ZSmsSettings,
  ZSubaccountTheme,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { fromParam, subaccountAccess, tenantOf } from '../../platform/guard';
import { assertFeature } from '../billing/limits';
import * as service from './service';

const tags = ['theme'];

/**
 * Anyone who may work in a sub-account switches its light/dark mode (the account menu's toggle);
 * its branding (primary colour, company name, logo) is the admins' to change.
 */
const adminForBranding = (role: TRole, body: object, everyone: string[]) => {
  if (role === 'admin') return;
  const branding = Object.keys(body).filter((key) => !everyone.includes(key));
  if (branding.length > 0) {
    throw new AppError('FORBIDDEN', 'Only admins can change the branding of this account', { field: branding[0] });
  }
};

/** A sub-account's own company name and logo are white-label branding (a plan feature). */
const whiteLabelBranding = async (
  deps: Deps,
  accountId: string,
  body: { companyName?: unknown; logoUrl?: unknown },
) => {
  if (body.companyName !== undefined || (body.logoUrl !== undefined && body.logoUrl !== null)) {
    await assertFeature(deps, accountId, 'whitelabel_branding');
  }
};

export const themeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const ZConnectParams = z.object({ connectId: z.string().max(64) });
  const ZSubaccountParams = z.object({ subaccountId: z.string().max(64) });

  app.get(
    '/api/sms/:connectId/settings',
    {
      config: subaccountAccess('viewer', fromConnectId(), { client: 'read' }),
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
    async (request) => {
      adminForBranding(tenantOf(request).role, request.body, ['theme']);
      await whiteLabelBranding(app.deps, tenantOf(request).accountId, request.body);
      return service.patchSmsSettings(db, tenantOf(request).subaccountId, request.body);
    },
  );

  app.get(
    '/api/subaccounts/:subaccountId/theme',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId'), { client: 'read' }),
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
    async (request) => {
      adminForBranding(tenantOf(request).role, request.body, ['isDarkMode']);
      return service.patchTheme(db, tenantOf(request).subaccountId, request.body);
    },
  );
};
