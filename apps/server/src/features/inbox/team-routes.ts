import {
  ZAssignRequest,
  ZCannedReply,
  ZCannedReplyInput,
  ZCannedReplyList,
  ZContactProfile,
  ZContactProfileUpdate,
  ZCreateLabelRequest,
  ZInboxAssigneeList,
  ZInboxLabel,
  ZInboxLabelList,
  ZTeamInboxQuery,
  ZTeamInboxThreadList,
  ZThreadLabelsRequest,
  ZUpdateLabelRequest,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, fromParam, subaccountAccess, tenantOf } from '../../platform/guard';
import { streamSlot } from '../../platform/stream-slots';
import { openSse } from '../widget/sse';
import { assignThread, listAssignees } from './assignment';
import { deleteCannedReply, listCannedReplies, saveCannedReply } from './canned-replies';
import { conversationsTopic } from './events';
import { createLabel, deleteLabel, listLabels, setThreadLabels, updateLabel } from './labels';
import { contactProfile, listTeamThreads, updateContactProfile } from './team-threads';

const tags = ['inbox'];
const id = z.string().max(64);
const ZParams = z.object({ subaccountId: id });
const ZThreadParams = ZParams.extend({ threadId: id });
const ZLabelParams = ZParams.extend({ labelId: id });
const ZCannedParams = ZParams.extend({ cannedReplyId: id });
const sub = fromParam('subaccountId');
const read = subaccountAccess('viewer', sub, { client: 'read' });
const act = subaccountAccess('member', sub, { client: 'inbox' });

/** The team inbox of a sub-account: every channel's threads, assignment, labels, canned replies, contact profiles. */
export const teamInboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const base = '/api/subaccounts/:subaccountId/inbox';

  app.get(
    `${base}/threads`,
    {
      config: read,
      schema: { tags, params: ZParams, querystring: ZTeamInboxQuery, response: { 200: ZTeamInboxThreadList } },
    },
    async (request) => listTeamThreads(deps, tenantOf(request).subaccountId, callerOf(request).userId, request.query),
  );

  /** Server-sent events: `thread` for every change of a conversation or of the labels and canned replies. */
  app.get(
    `${base}/events`,
    { config: { ...read, ...streamSlot() }, schema: { tags, params: ZParams } },
    async (request, reply) => {
      let unsubscribe = () => {};
      const stream = openSse(request, reply, { onClose: () => unsubscribe() });
      unsubscribe = deps.bus.subscribe(conversationsTopic(tenantOf(request).subaccountId), (payload) =>
        stream.send('thread', payload),
      );
      return reply;
    },
  );

  app.put(
    `${base}/threads/:threadId/assignee`,
    {
      config: act,
      schema: {
        tags,
        params: ZThreadParams,
        body: ZAssignRequest,
        response: { 200: z.object({ threadId: z.string(), assignedUserId: z.string().nullable() }) },
      },
    },
    async (request) => assignThread(deps, tenantOf(request).subaccountId, request.params.threadId, request.body.userId),
  );

  app.put(
    `${base}/threads/:threadId/labels`,
    {
      config: act,
      schema: {
        tags,
        params: ZThreadParams,
        body: ZThreadLabelsRequest,
        response: { 200: z.object({ threadId: z.string(), labelIds: z.array(z.string()) }) },
      },
    },
    async (request) =>
      setThreadLabels(deps, tenantOf(request).subaccountId, request.params.threadId, request.body.labelIds),
  );

  app.get(
    `${base}/threads/:threadId/contact`,
    { config: read, schema: { tags, params: ZThreadParams, response: { 200: ZContactProfile } } },
    async (request) => contactProfile(deps, tenantOf(request).subaccountId, request.params.threadId),
  );

  app.patch(
    `${base}/threads/:threadId/contact`,
    {
      config: act,
      schema: { tags, params: ZThreadParams, body: ZContactProfileUpdate, response: { 200: ZContactProfile } },
    },
    async (request) =>
      updateContactProfile(deps, tenantOf(request).subaccountId, request.params.threadId, request.body),
  );

  app.get(
    `${base}/assignees`,
    { config: read, schema: { tags, params: ZParams, response: { 200: ZInboxAssigneeList } } },
    async (request) => listAssignees(deps, tenantOf(request).subaccountId),
  );

  app.get(
    `${base}/labels`,
    { config: read, schema: { tags, params: ZParams, response: { 200: ZInboxLabelList } } },
    async (request) => listLabels(deps, tenantOf(request).subaccountId),
  );

  app.post(
    `${base}/labels`,
    { config: act, schema: { tags, params: ZParams, body: ZCreateLabelRequest, response: { 201: ZInboxLabel } } },
    async (request, reply) =>
      reply.status(201).send(await createLabel(deps, tenantOf(request).subaccountId, request.body)),
  );

  app.patch(
    `${base}/labels/:labelId`,
    { config: act, schema: { tags, params: ZLabelParams, body: ZUpdateLabelRequest, response: { 200: ZInboxLabel } } },
    async (request) => updateLabel(deps, tenantOf(request).subaccountId, request.params.labelId, request.body),
  );

  app.delete(
    `${base}/labels/:labelId`,
    { config: act, schema: { tags, params: ZLabelParams } },
    async (request, reply) => {
      await deleteLabel(deps, tenantOf(request).subaccountId, request.params.labelId);
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/canned-replies`,
    { config: read, schema: { tags, params: ZParams, response: { 200: ZCannedReplyList } } },
    async (request) => listCannedReplies(deps, tenantOf(request).subaccountId),
  );

  app.post(
    `${base}/canned-replies`,
    { config: act, schema: { tags, params: ZParams, body: ZCannedReplyInput, response: { 201: ZCannedReply } } },
    async (request, reply) =>
      reply.status(201).send(await saveCannedReply(deps, tenantOf(request).subaccountId, request.body)),
  );

  app.put(
    `${base}/canned-replies/:cannedReplyId`,
    { config: act, schema: { tags, params: ZCannedParams, body: ZCannedReplyInput, response: { 200: ZCannedReply } } },
    async (request) =>
      saveCannedReply(deps, tenantOf(request).subaccountId, request.body, request.params.cannedReplyId),
  );

  app.delete(
    `${base}/canned-replies/:cannedReplyId`,
    { config: act, schema: { tags, params: ZCannedParams } },
    async (request, reply) => {
      await deleteCannedReply(deps, tenantOf(request).subaccountId, request.params.cannedReplyId);
      return reply.status(204).send();
    },
  );
};
