import {
  DOMAIN_VERIFICATION_PATH,
  normaliseHostname,
  ZAccountDomainResponse,
  ZAgencyDomain,
  ZOperatorConfirmDomainRequest,
  ZPutAccountDomainRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { accountManagerOfParam, operatorOnly, publicAccess, tenantOf } from '../../platform/guard';
import { parseAuthority } from '../../platform/http';
import * as service from './service';

const tags = ['domains'];

const ZAccountParams = z.object({ accountId: z.string().max(64) });

export const domainRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/api/accounts/:accountId/domain',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, response: { 200: ZAccountDomainResponse } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getDomain(deps, tenantOf(request).accountId);
    },
  );

  app.put(
    '/api/accounts/:accountId/domain',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, body: ZPutAccountDomainRequest, response: { 200: ZAgencyDomain } },
    },
    async (request) => service.putDomain(deps, tenantOf(request).accountId, request.body),
  );

  app.delete(
    '/api/accounts/:accountId/domain',
    { config: accountManagerOfParam(), schema: { tags, params: ZAccountParams } },
    async (request, reply) => {
      await service.deleteDomain(deps, tenantOf(request).accountId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/accounts/:accountId/domain/verify',
    {
      config: accountManagerOfParam(),
      schema: { tags, params: ZAccountParams, response: { 200: ZAgencyDomain } },
    },
    async (request) => service.verifyDomain(deps, tenantOf(request).accountId),
  );

  app.post(
    '/api/operator/domains/:hostname/confirm',
    {
      config: operatorOnly(),
      schema: {
        tags,
        params: z.object({ hostname: z.string().max(300) }),
        body: ZOperatorConfirmDomainRequest,
        response: { 200: z.object({ accountId: z.string(), domain: ZAgencyDomain }) },
      },
    },
    async (request) => {
      const hostname = normaliseHostname(request.params.hostname);
      if (!hostname) throw new AppError('NOT_FOUND', 'No account waits for this domain to be verified');
      return service.confirmByOperator(deps, hostname, request.body?.token);
    },
  );

  // On any host: the token of the domain whose hostname is the request's Host, for the HTTP check.
  app.get(DOMAIN_VERIFICATION_PATH, { config: publicAccess(), schema: { tags } }, async (request, reply) => {
    const authority = parseAuthority(request.host ?? '');
    const token = authority ? await service.tokenForHost(deps, authority.hostname) : null;
    reply.header('cache-control', 'no-store');
    if (!token) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
