/** The operator console's API (OPERATOR_EMAILS only; anyone else is answered 404): tickets and accounts. */
import {
  ZOperatorAccountList,
  ZOperatorAccountQuery,
  ZOperatorTicketDetail,
  ZOperatorTicketList,
  ZOperatorTicketQuery,
  ZTicketMessage,
  ZTicketReplyRequest,
  ZUpdateTicketRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, operatorOnly } from '../../platform/guard';
import * as service from './service';

const tags = ['operator'];
const ZTicketParams = z.object({ ticketId: z.string().min(1).max(64) });

export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/operator/tickets',
    {
      config: operatorOnly(),
      schema: { tags, querystring: ZOperatorTicketQuery, response: { 200: ZOperatorTicketList } },
    },
    async (request) => service.listTickets(deps, request.query),
  );

  app.get(
    '/api/operator/tickets/:ticketId',
    { config: operatorOnly(), schema: { tags, params: ZTicketParams, response: { 200: ZOperatorTicketDetail } } },
    async (request) => service.getTicket(deps, request.params.ticketId),
  );

  app.post(
    '/api/operator/tickets/:ticketId/replies',
    {
      config: operatorOnly(),
      schema: {
        tags,
        params: ZTicketParams,
        body: ZTicketReplyRequest,
        response: { 200: ZTicketMessage, 201: ZTicketMessage },
      },
    },
    async (request, reply) => {
      const { message, created } = await service.replyToTicket(
        deps,
        callerOf(request).email,
        request.params.ticketId,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  app.patch(
    '/api/operator/tickets/:ticketId',
    {
      config: operatorOnly(),
      schema: { tags, params: ZTicketParams, body: ZUpdateTicketRequest, response: { 200: ZOperatorTicketDetail } },
    },
    async (request) => service.setStatus(deps, request.params.ticketId, request.body),
  );

  app.get(
    '/api/operator/accounts',
    {
      config: operatorOnly(),
      schema: { tags, querystring: ZOperatorAccountQuery, response: { 200: ZOperatorAccountList } },
    },
    async (request) => service.listAccounts(deps, request.query),
  );
};
