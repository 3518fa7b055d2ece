import {
  ZCreateTicketRequest,
  ZPageQuery,
  ZTicket,
  ZTicketListResponse,
  ZTicketMessage,
  ZTicketReplyRequest,
  ZTicketWithThread,
  ZVideoGuides,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, fromCurrentSubaccount, subaccountAccess, tenantOf, userAccess } from '../../platform/guard';
import type { Mailer } from '../../platform/mailer';
import * as service from './service';

const tags = ['support'];
const ZTicketParams = z.object({ ticketId: z.string().min(1).max(64) });

/** The ticket routes' access: the signed-in user who sent the ticket; anyone else is answered 404. */
const ticketOwner = () =>
  userAccess({
    owns: (request, deps, caller) =>
      service.ownsTicket(deps, caller, String((request.params as { ticketId?: string }).ticketId ?? '').slice(0, 64)),
  });

export const supportRoutes =
  (mailer: Mailer): FastifyPluginAsyncZod =>
  async (app) => {
    const { deps } = app;

    app.get(
      '/api/support/tickets',
      {
        config: subaccountAccess('viewer', fromCurrentSubaccount()),
        schema: { tags, querystring: ZPageQuery, response: { 200: ZTicketListResponse } },
      },
      async (request) =>
        service.listTickets(deps, callerOf(request), tenantOf(request), request.query.page, request.query.limit),
    );

    app.post(
      '/api/support/tickets',
      {
        config: {
          ...subaccountAccess('viewer', fromCurrentSubaccount()),
          rateLimit: { max: 5, timeWindow: '1 minute', keyGenerator: (request) => `support-ticket:${request.ip}` },
        },
        schema: { tags, body: ZCreateTicketRequest, response: { 201: ZTicket } },
      },
      async (request, reply) => {
        const ticket = await service.createTicket(
          deps,
          mailer,
          callerOf(request),
          tenantOf(request),
          request.body,
          request.headers['user-agent'],
        );
        return reply.status(201).send(ticket);
      },
    );

    app.get(
      '/api/support/tickets/:ticketId',
      { config: ticketOwner(), schema: { tags, params: ZTicketParams, response: { 200: ZTicketWithThread } } },
      async (request) => service.getTicket(deps, callerOf(request), request.params.ticketId),
    );

    app.post(
      '/api/support/tickets/:ticketId/replies',
      {
        config: {
          ...ticketOwner(),
          rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: (request) => `support-answer:${request.ip}` },
        },
        schema: {
          tags,
          params: ZTicketParams,
          body: ZTicketReplyRequest,
          response: { 200: ZTicketMessage, 201: ZTicketMessage },
        },
      },
      async (request, reply) => {
        const { message, created } = await service.answerTicket(
          deps,
          callerOf(request),
          request.params.ticketId,
          request.body,
        );
        return reply.status(created ? 201 : 200).send(message);
      },
    );

    app.get(
      '/api/support/videos',
      { config: userAccess(), schema: { tags, response: { 200: ZVideoGuides } } },
      async () => ({ videos: deps.env.HOWITWORKS_VIDEOS }),
    );
  };
