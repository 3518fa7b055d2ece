import fastifyMultipart from '@fastify/multipart';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_MESSAGES,
  ZAddWebsiteRequest,
  ZAddWebsiteResponse,
  ZKnowledgeDocument,
  ZKnowledgeDocumentList,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { subaccountAccess, tenantOf } from '../../platform/guard';
import { withoutNul } from '../../platform/nul-input';
import { findAgentCached } from '../agents/cache';
import { fromAgentParam } from '../agents/routes';
import { indexNewPassages } from './embedding-job';
import { searchStatus } from './retrieve';
import { addDocument, addWebsite, deleteDocument, listDocuments, uploadFailure } from './service';

const tags = ['knowledge'];
const ZParams = z.object({ agentId: z.string().max(64) });

export const knowledgeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  // New passages are queued for meaning search when the agent's provider has an embedding model.
  const indexLater = (agentId: string, reason: string) =>
    indexNewPassages(deps, agentId, reason).catch((error) =>
      deps.log.warn({ err: error, agentId }, 'knowledge indexing could not be queued'),
    );
  // One byte over the limit is enough to know a file is too large.
  await app.register(fastifyMultipart, {
    preservePath: true,
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 5 },
  });

  app.post(
    '/api/agents/:agentId/websites',
    {
      config: subaccountAccess('member', fromAgentParam(), { client: 'editAgents' }),
      schema: { tags, params: ZParams, body: ZAddWebsiteRequest, response: { 201: ZAddWebsiteResponse } },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const result = await addWebsite(deps.db, deps.env, {
        agentId: request.params.agentId,
        subaccountId: tenant.subaccountId,
        url: request.body.url,
        maxPages: request.body.maxPages,
      });
      await indexLater(request.params.agentId, `site:${result.documents[0]?.id ?? result.site}`);
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/agents/:agentId/documents',
    {
      config: subaccountAccess('viewer', fromAgentParam(), { client: 'read' }),
      schema: { tags, params: ZParams, response: { 200: ZKnowledgeDocumentList } },
    },
    async (request) => {
      const agent = await findAgentCached(deps.db, request.params.agentId);
      const [documents, search] = await Promise.all([
        listDocuments(deps.db, request.params.agentId),
        agent ? searchStatus(deps, agent) : { mode: 'keyword' as const, model: null, indexed: 0, total: 0 },
      ]);
      return { documents, search };
    },
  );

  app.post(
    '/api/agents/:agentId/documents',
    {
      config: subaccountAccess('member', fromAgentParam(), { client: 'editAgents' }),
      schema: { tags, params: ZParams, consumes: ['multipart/form-data'], response: { 201: ZKnowledgeDocument } },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const file = request.isMultipart() ? await request.file() : undefined;
      if (!file) throw uploadFailure(UPLOAD_MESSAGES.missing);
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch {
        throw uploadFailure(UPLOAD_MESSAGES.tooLarge);
      }
      const size = file.file.truncated ? MAX_UPLOAD_BYTES + 1 : buffer.length;
      const created = await addDocument(deps.db, deps.env, {
        agentId: request.params.agentId,
        subaccountId: tenant.subaccountId,
        name: withoutNul(file.filename),
        mimeType: file.mimetype,
        buffer,
        size,
      });
      await indexLater(request.params.agentId, `document:${created.id}`);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/agents/:agentId/documents/:documentId',
    {
      config: subaccountAccess('member', fromAgentParam(), { client: 'editAgents' }),
      schema: { tags, params: ZParams.extend({ documentId: z.string().max(64) }) },
    },
    async (request, reply) => {
      await deleteDocument(deps.db, request.params.agentId, request.params.documentId);
      return reply.status(204).send();
    },
  );
};
