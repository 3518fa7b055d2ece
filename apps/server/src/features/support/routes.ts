import { ZCreateTicketRequest, ZPageQuery, ZTicket, ZTicketListResponse, ZVideoGuides } from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, fromCurrentSubaccount, subaccountAccess, tenantOf, userAccess } from '../../platform/guard';
import type { Mailer } from '../../platform/mailer';
import * as service from './service';

const tags = ['support'];

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
      '/api/support/videos',
      { config: userAccess(), schema: { tags, response: { 200: ZVideoGuides } } },
      async () => ({ videos: deps.env.HOWITWORKS_VIDEOS }),
    );
  };
