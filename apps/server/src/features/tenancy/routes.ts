import {
  ZAccountsResponse,
  ZChangeRoleRequest,
  ZConnectContext,
  ZCreateSubaccountRequest,
  ZInviteMemberRequest,
  ZMembersResponse,
  ZSubaccount,
  ZTransferOwnershipRequest,
  ZTransferOwnershipResponse,
} from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromConnectId } from '../../platform/connect-id';
import { callerOf, fromParam, subaccountAccess, tenantOf, userAccess } from '../../platform/guard';
import { linkOriginOf } from '../../platform/http';
import type { MailBrandLookup, Mailer } from '../../platform/mailer';
import * as service from './service';

const tags = ['accounts'];
const ZSubaccountParams = z.object({ subaccountId: z.string().max(64) });
const ZMemberParams = ZSubaccountParams.extend({ userId: z.string().max(64) });
const ZInviteParams = ZSubaccountParams.extend({ inviteId: z.string().max(64) });
const bySubaccount = fromParam('subaccountId');

export const tenancyRoutes =
  (mailer: Mailer, options: { mailBrand?: MailBrandLookup } = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const { deps } = app;

    app.get(
      '/api/accounts',
      { config: userAccess({ clients: true }), schema: { tags, response: { 200: ZAccountsResponse } } },
      async (request) => {
        const caller = callerOf(request);
        return { accounts: await service.listAccounts(deps, caller.userId, caller.apiKeySubaccountId) };
      },
    );

    app.post(
      '/api/subaccounts',
      {
        config: userAccess({ sessionOnly: true }),
        schema: { tags, body: ZCreateSubaccountRequest, response: { 201: ZSubaccount } },
      },
      async (request, reply) => {
        const created = await service.createSubaccount(
          deps,
          callerOf(request).userId,
          request.body.accountId,
          request.body.name,
        );
        return reply.status(201).send(created);
      },
    );

    app.post(
      '/api/accounts/:accountId/transfer-ownership',
      {
        config: userAccess({
          sessionOnly: true,
          // Another agency's id is not found, whatever the body.
          owns: async (request, _deps, caller) => {
            const { accountId } = request.params as { accountId?: unknown };
            return typeof accountId === 'string' && service.belongsToAccount(deps, caller.userId, accountId);
          },
        }),
        schema: {
          tags,
          params: z.object({ accountId: z.string().max(64) }),
          body: ZTransferOwnershipRequest,
          response: { 200: ZTransferOwnershipResponse },
        },
      },
      async (request) =>
        service.transferOwnership(deps, request.params.accountId, callerOf(request).userId, request.body.userId),
    );

    app.get(
      '/api/connect-context/:connectId',
      {
        config: subaccountAccess('viewer', fromConnectId(), { client: 'read' }),
        schema: {
          tags,
          params: z.object({ connectId: z.string().max(64) }),
          response: { 200: ZConnectContext },
        },
      },
      async (request) => ({ connectId: request.params.connectId, ...tenantOf(request) }),
    );

    const membersResponse = async (request: FastifyRequest) => {
      const { subaccountId, role } = tenantOf(request);
      const members = await service.listMembers(deps, subaccountId);
      const me = callerOf(request).userId;
      return { members, myRole: role, iAmOwner: members.some((member) => member.isOwner && member.userId === me) };
    };

    app.get(
      '/api/subaccounts/:subaccountId/members',
      {
        config: subaccountAccess('viewer', bySubaccount),
        schema: { tags, params: ZSubaccountParams, response: { 200: ZMembersResponse } },
      },
      async (request) => membersResponse(request),
    );

    app.post(
      '/api/subaccounts/:subaccountId/members',
      {
        config: subaccountAccess('admin', bySubaccount),
        schema: { tags, params: ZSubaccountParams, body: ZInviteMemberRequest, response: { 200: ZMembersResponse } },
      },
      async (request) => {
        const tenant = tenantOf(request);
        await service.inviteMember(deps, mailer, {
          subaccountId: tenant.subaccountId,
          invitedBy: callerOf(request).userId,
          byRole: tenant.role,
          origin: await linkOriginOf(request, deps.env),
          mailBrand: options.mailBrand,
          ...request.body,
        });
        return membersResponse(request);
      },
    );

    app.patch(
      '/api/subaccounts/:subaccountId/members/:userId',
      {
        config: subaccountAccess('admin', bySubaccount),
        schema: { tags, params: ZMemberParams, body: ZChangeRoleRequest, response: { 200: ZMembersResponse } },
      },
      async (request) => {
        const tenant = tenantOf(request);
        await service.changeRole(deps, tenant.subaccountId, request.params.userId, request.body.role, tenant.role);
        return membersResponse(request);
      },
    );

    app.delete(
      '/api/subaccounts/:subaccountId/members/:userId',
      {
        config: subaccountAccess('admin', bySubaccount),
        schema: { tags, params: ZMemberParams, response: { 200: ZMembersResponse } },
      },
      async (request) => {
        const tenant = tenantOf(request);
        await service.removeMember(deps, tenant.subaccountId, request.params.userId);
        return membersResponse(request);
      },
    );

    app.patch(
      '/api/subaccounts/:subaccountId/invites/:inviteId',
      {
        config: subaccountAccess('admin', bySubaccount),
        schema: { tags, params: ZInviteParams, body: ZChangeRoleRequest, response: { 200: ZMembersResponse } },
      },
      async (request) => {
        const tenant = tenantOf(request);
        await service.changeInviteRole(
          deps,
          tenant.subaccountId,
          request.params.inviteId,
          request.body.role,
          tenant.role,
        );
        return membersResponse(request);
      },
    );

    app.delete(
      '/api/subaccounts/:subaccountId/invites/:inviteId',
      {
        config: subaccountAccess('admin', bySubaccount),
        schema: { tags, params: ZInviteParams, response: { 200: ZMembersResponse } },
      },
      async (request) => {
        const tenant = tenantOf(request);
        await service.revokeInvite(deps, tenant.subaccountId, request.params.inviteId);
        return membersResponse(request);
      },
    );
  };
