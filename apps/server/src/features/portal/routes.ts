import {
  ZAgencyBranding,
  ZClientAccessResponse,
  ZPatchAgencyBrandingRequest,
  ZPatchClientAccessRequest,
  ZPortalBranding,
  ZPortalBrandingQuery,
  ZPortalContext,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountManagerOfParam,
  fromCurrentSubaccount,
  fromParam,
  publicAccess,
  subaccountAccess,
  tenantOf,
} from '../../platform/guard';
import { parseAuthority } from '../../platform/http';
import * as service from './service';

const tags = ['portal'];

const subaccountManager = () =>
  subaccountAccess('viewer', fromParam('subaccountId'), { allowLocked: true, account: 'manage' });

const ZAccountParams = z.object({ accountId: z.string().max(64) });
const ZSubaccountParams = z.object({ subaccountId: z.string().max(64) });

export const portalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/accounts/:accountId/branding',
    { config: accountManagerOfParam(), schema: { tags, params: ZAccountParams, response: { 200: ZAgencyBranding } } },
    async (request) => service.getAgencyBranding(deps, tenantOf(request).accountId),
  );

  app.patch(
    '/api/accounts/:accountId/branding',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, body: ZPatchAgencyBrandingRequest, response: { 200: ZAgencyBranding } },
    },
    async (request) => service.patchAgencyBranding(deps, tenantOf(request).accountId, request.body),
  );

  app.get(
    '/api/subaccounts/:subaccountId/client-access',
    {
      config: subaccountManager(),
      schema: { tags, params: ZSubaccountParams, response: { 200: ZClientAccessResponse } },
    },
    async (request) => service.getClientAccess(deps, tenantOf(request).subaccountId),
  );

  app.patch(
    '/api/subaccounts/:subaccountId/client-access',
    {
      config: subaccountManager(),
      schema: {
        tags,
        params: ZSubaccountParams,
        body: ZPatchClientAccessRequest,
        response: { 200: ZClientAccessResponse },
      },
    },
    async (request) => service.patchClientAccess(deps, tenantOf(request).subaccountId, request.body),
  );

  // On an agency's verified domain, that agency (its own slug only); elsewhere by slug (`/a/{slug}`).
  // A Host that is not a verified mapping names no agency.
  app.get(
    '/api/portal/branding',
    { config: publicAccess(), schema: { tags, querystring: ZPortalBrandingQuery, response: { 200: ZPortalBranding } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const hostname = parseAuthority(request.host ?? '')?.hostname ?? null;
      return service.portalBranding(deps, { slug: request.query.slug, hostname });
    },
  );

  app.get(
    '/api/portal/context',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount(), { allowLocked: true, client: 'read' }),
      schema: { tags, response: { 200: ZPortalContext } },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const [access, branding] = await Promise.all([
        service.getClientAccess(deps, tenant.subaccountId),
        service.portalBrandingOfAccount(deps, tenant.accountId),
      ]);
      return {
        subaccountId: tenant.subaccountId,
        accountId: tenant.accountId,
        isClient: tenant.role === 'client',
        access: access.access,
        branding,
      };
    },
  );
};
