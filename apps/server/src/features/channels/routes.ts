import fastifyMultipart from '@fastify/multipart';
import {
  CONTACT_IMPORT_MAX_BYTES,
  INSTAGRAM_USERNAME,
  INVALID_NUMBER_MESSAGE,
  ZChannelConnection,
  ZChannelConnectionList,
  ZChannelMedia,
  ZChannelMessageList,
  ZChannelType,
  ZContact,
  ZContactImportMapping,
  ZContactImportPreview,
  ZContactImportReport,
  ZContactList,
  ZContactListQuery,
  ZCreateChannelConnectionRequest,
  ZCreateContactRequest,
  ZE164,
  ZMessagingSettings,
  ZPatchMessagingSettingsRequest,
  ZSandboxInboundRequest,
  ZUpdateChannelConnectionRequest,
  ZUpdateContactRequest,
} from '@switchboard/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { fromConnectId } from '../../platform/connect-id';
import { AppError } from '../../platform/errors';
import { fromParam, publicAccess, type SubaccountResolver, subaccountAccess, tenantOf } from '../../platform/guard';
import { newToken } from '../../platform/ids';
import { assertNoNul } from '../../platform/nul-input';
import { vendorLimit } from '../../platform/request-limits';
import { streamSlot } from '../../platform/stream-slots';
import { openSse } from '../widget/sse';
import * as channels from './connections';
import * as contactService from './contacts';
import { importContacts, previewImport } from './contacts-import';
import { receiveInbound } from './inbound';
import { readMedia, storeMedia } from './media';
import { channelEvents, messageCursor, pageOfMessages } from './outbound';
import { requireE164 } from './phone';
import { refuseSandboxOff } from './sandbox-mode';

const tags = ['channels'];
const ZConnectionParams = z.object({ connectionId: z.string().max(64) });
const ZConnectParams = z.object({ connectId: z.string().max(64) });

const fromConnection: SubaccountResolver = async (request, deps) => {
  const id = (request.params as { connectionId?: string }).connectionId ?? '';
  return (await channels.findChannel(deps.db, id))?.connection.subaccountId ?? null;
};
/** The channel a `{connectId}` names, when it is one (contacts then show its sender's opt-outs). */
const channelOfConnectId = async (db: Db, subaccountId: string, connectId: string) => {
  const channel = connectId.startsWith('con_') ? await channels.findChannel(db, connectId) : null;
  return channel?.connection.subaccountId === subaccountId ? channel : null;
};

const fromBody: SubaccountResolver = async (request) =>
  (request.body as { subaccountId?: string } | undefined)?.subaccountId;

/** The sandbox phone's sender on SMS and WhatsApp: strictly E.164, as Twilio sends it. */
const e164From = (raw: string) => {
  const parsed = ZE164.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', INVALID_NUMBER_MESSAGE, { field: 'from' });
  return parsed.data;
};

const uploadedFile = async (request: FastifyRequest) => {
  const fields: Record<string, string> = {};
  let buffer: Buffer | null = null;
  if (!request.isMultipart())
    throw new AppError('VALIDATION_ERROR', 'Upload the CSV file as multipart/form-data', { field: 'file' });
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        buffer = await part.toBuffer();
        if (part.file.truncated) buffer = Buffer.alloc(CONTACT_IMPORT_MAX_BYTES + 1);
      } else {
        assertNoNul(part.value, part.fieldname);
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'VALIDATION_ERROR',
      `The file is larger than ${CONTACT_IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
      { field: 'file' },
    );
  }
  if (!buffer) throw new AppError('VALIDATION_ERROR', 'Choose a CSV file to upload', { field: 'file' });
  return { buffer, fields };
};

/** SMS, WhatsApp and Instagram connections, the sandbox phone, contacts and the messaging profile. */
export const channelRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  await app.register(fastifyMultipart, { limits: { fileSize: CONTACT_IMPORT_MAX_BYTES + 1, files: 1, fields: 5 } });

  app.get(
    '/api/subaccounts/:subaccountId/channels',
    {
      config: subaccountAccess('viewer', fromParam('subaccountId'), { client: 'read' }),
      schema: {
        tags,
        params: z.object({ subaccountId: z.string().max(64) }),
        querystring: z.object({ type: ZChannelType }),
        response: { 200: ZChannelConnectionList },
      },
    },
    async (request) => channels.listChannels(deps, tenantOf(request).subaccountId, request.query.type),
  );

  app.post(
    '/api/channels',
    {
      config: subaccountAccess('member', fromBody),
      schema: { tags, body: ZCreateChannelConnectionRequest, response: { 201: ZChannelConnection } },
    },
    async (request, reply) =>
      reply.status(201).send(await channels.createChannel(deps, tenantOf(request), request.body)),
  );

  app.post(
    '/api/channels/:connectionId/media',
    {
      // Files are kept in the database: a burst of uploads is slowed down, not stored.
      config: { ...subaccountAccess('member', fromConnection), rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, params: ZConnectionParams, response: { 201: ZChannelMedia } },
    },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      await channels.getChannel(deps, subaccountId, request.params.connectionId);
      if (!request.isMultipart())
        throw new AppError('MEDIA_UPLOAD_FAILED', 'Upload the file as multipart/form-data', { field: 'file' });
      let file: { data: Buffer; fileName: string; truncated: boolean } | null = null;
      try {
        const part = await request.file();
        if (part) file = { data: await part.toBuffer(), fileName: part.filename, truncated: part.file.truncated };
      } catch {
        throw new AppError('MEDIA_UPLOAD_FAILED', 'The file is larger than 5 MB.', { field: 'file' });
      }
      if (!file) throw new AppError('MEDIA_UPLOAD_FAILED', 'Choose an image or a PDF to upload', { field: 'file' });
      return reply
        .status(201)
        .send(await storeMedia(deps, { subaccountId, connectionId: request.params.connectionId, ...file }));
    },
  );

  // A file to send with a message, at its unguessable address (Twilio and Meta fetch it from here).
  app.get(
    '/api/media/:mediaId',
    {
      config: { ...publicAccess(), ...vendorLimit(deps.env) },
      schema: { hide: true, params: z.object({ mediaId: z.string().max(80) }) },
    },
    async (request, reply) => {
      const media = await readMedia(deps, request.params.mediaId);
      if (!media) throw new AppError('NOT_FOUND', 'The file does not exist or was deleted.');
      return reply
        .header('content-type', media.contentType)
        .header('content-disposition', `inline; filename="${media.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=86400')
        .send(media.data);
    },
  );

  app.get(
    '/api/channels/:connectionId',
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'read' }),
      schema: { tags, params: ZConnectionParams, response: { 200: ZChannelConnection } },
    },
    async (request) => channels.getChannel(deps, tenantOf(request).subaccountId, request.params.connectionId),
  );

  app.patch(
    '/api/channels/:connectionId',
    {
      config: subaccountAccess('member', fromConnection),
      schema: {
        tags,
        params: ZConnectionParams,
        body: ZUpdateChannelConnectionRequest,
        response: { 200: ZChannelConnection },
      },
    },
    async (request) =>
      channels.updateChannel(deps, tenantOf(request).subaccountId, request.params.connectionId, request.body),
  );

  app.get(
    '/api/channels/:connectionId/messages',
    {
      config: subaccountAccess('viewer', fromConnection, { client: 'read' }),
      schema: {
        tags,
        params: ZConnectionParams,
        querystring: z.object({
          phone: z.string().max(40).optional(),
          limit: z.coerce.number().int().min(1).max(500).default(200),
          /** A message id: the page of messages just before it (paging back through older ones). */
          before: z.string().max(64).optional(),
        }),
        response: { 200: ZChannelMessageList },
      },
    },
    async (request) => {
      const channel = await channels.ownedChannel(deps.db, tenantOf(request).subaccountId, request.params.connectionId);
      const phone = request.query.phone ? requireE164(request.query.phone, 'phone') : undefined;
      const before = request.query.before
        ? await messageCursor(deps, channel.connection.id, request.query.before)
        : undefined;
      if (before === null)
        throw new AppError('VALIDATION_ERROR', 'This message is not one of the connection’s.', { field: 'before' });
      return pageOfMessages(deps, channel.connection.id, { phone, limit: request.query.limit, before });
    },
  );

  /** Server-sent events: `message` whenever a message of this connection arrives or changes state. */
  app.get(
    '/api/channels/:connectionId/events',
    {
      config: { ...subaccountAccess('viewer', fromConnection, { client: 'read' }), ...streamSlot() },
      schema: { tags, params: ZConnectionParams },
    },
    async (request, reply) => {
      const channel = await channels.ownedChannel(deps.db, tenantOf(request).subaccountId, request.params.connectionId);
      let unsubscribe = () => {};
      const stream = openSse(request, reply, { onClose: () => unsubscribe() });
      unsubscribe = deps.bus.subscribe(channelEvents(channel.connection.id), (payload) =>
        stream.send('message', payload),
      );
      return reply;
    },
  );

  /** The sandbox phone texts the agent (sandbox connections only). */
  app.post(
    '/api/channels/:connectionId/sandbox/inbound',
    {
      config: subaccountAccess('member', fromConnection),
      schema: { tags, params: ZConnectionParams, body: ZSandboxInboundRequest },
    },
    async (request, reply) => {
      const channel = await channels.ownedChannel(deps.db, tenantOf(request).subaccountId, request.params.connectionId);
      const instagram = channel.connection.type === 'instagram';
      refuseSandboxOff(deps.env, 'sandbox');
      if (channel.account.transport !== 'sandbox')
        throw new AppError(
          'CONFLICT',
          instagram
            ? 'This connection answers through Meta; send a direct message to the Instagram account instead.'
            : 'This connection sends through Twilio; text its number from a real phone.',
        );
      if (!request.body.body.trim() && !request.body.mediaUrls?.length)
        throw new AppError('VALIDATION_ERROR', 'Type a message', { field: 'body' });
      const from = request.body.from.replace(/^@/, '');
      if (instagram && !INSTAGRAM_USERNAME.test(from))
        throw new AppError('VALIDATION_ERROR', 'Use letters, digits, dots and underscores, at most 30', {
          field: 'from',
        });
      const result = await receiveInbound(deps, channel, {
        from: instagram ? from : e164From(request.body.from),
        body: request.body.body,
        providerSid: `SBXIN${newToken(12)}`,
        mediaUrls: request.body.mediaUrls ?? [],
      });
      return reply.status(202).send({ messageId: result.messageId });
    },
  );

  app.get(
    '/api/channels/:connectId/messaging-settings',
    {
      config: subaccountAccess('viewer', fromConnectId(), { client: 'campaigns' }),
      schema: { tags, params: ZConnectParams, response: { 200: ZMessagingSettings } },
    },
    async (request) => contactService.messagingSettings(deps.db, tenantOf(request).subaccountId),
  );

  app.patch(
    '/api/channels/:connectId/messaging-settings',
    {
      config: subaccountAccess('member', fromConnectId()),
      schema: {
        tags,
        params: ZConnectParams,
        body: ZPatchMessagingSettingsRequest,
        response: { 200: ZMessagingSettings },
      },
    },
    async (request) => contactService.patchMessagingSettings(deps.db, tenantOf(request).subaccountId, request.body),
  );

  app.get(
    '/api/channels/:connectId/contacts',
    {
      config: subaccountAccess('viewer', fromConnectId(), { client: 'campaigns' }),
      schema: { tags, params: ZConnectParams, querystring: ZContactListQuery, response: { 200: ZContactList } },
    },
    async (request) => {
      const { subaccountId } = tenantOf(request);
      const channel = await channelOfConnectId(deps.db, subaccountId, request.params.connectId);
      return contactService.listContacts(deps.db, subaccountId, request.query, channel);
    },
  );

  app.post(
    '/api/channels/:connectId/contacts',
    {
      config: subaccountAccess('member', fromConnectId(), { client: 'campaigns' }),
      schema: { tags, params: ZConnectParams, body: ZCreateContactRequest, response: { 201: ZContact } },
    },
    async (request, reply) => {
      const { subaccountId } = tenantOf(request);
      const channel = await channelOfConnectId(deps.db, subaccountId, request.params.connectId);
      return reply.status(201).send(await contactService.createContact(deps.db, subaccountId, request.body, channel));
    },
  );

  app.patch(
    '/api/channels/:connectId/contacts/:contactId',
    {
      config: subaccountAccess('member', fromConnectId(), { client: 'campaigns' }),
      schema: {
        tags,
        params: ZConnectParams.extend({ contactId: z.string().max(64) }),
        body: ZUpdateContactRequest,
        response: { 200: ZContact },
      },
    },
    async (request) => {
      const { subaccountId } = tenantOf(request);
      const channel = await channelOfConnectId(deps.db, subaccountId, request.params.connectId);
      return contactService.updateContact(deps.db, subaccountId, request.params.contactId, request.body, channel);
    },
  );

  app.delete(
    '/api/channels/:connectId/contacts/:contactId',
    {
      config: subaccountAccess('member', fromConnectId(), { client: 'campaigns' }),
      schema: { tags, params: ZConnectParams.extend({ contactId: z.string().max(64) }) },
    },
    async (request, reply) => {
      await contactService.deleteContact(deps.db, tenantOf(request).subaccountId, request.params.contactId);
      return reply.status(204).send();
    },
  );

  /** Step 1 of an import: the file's columns, a few rows and a suggested mapping. */
  app.post(
    '/api/channels/:connectId/contacts/import/preview',
    {
      config: subaccountAccess('member', fromConnectId(), { client: 'campaigns' }),
      schema: {
        tags,
        params: ZConnectParams,
        consumes: ['multipart/form-data'],
        response: { 200: ZContactImportPreview },
      },
    },
    async (request) => previewImport((await uploadedFile(request)).buffer),
  );

  /** Step 2: the file again with the mapping (a JSON field); answers the report of rejected rows. */
  app.post(
    '/api/channels/:connectId/contacts/import',
    {
      config: subaccountAccess('member', fromConnectId(), { client: 'campaigns' }),
      schema: {
        tags,
        params: ZConnectParams,
        consumes: ['multipart/form-data'],
        response: { 200: ZContactImportReport },
      },
    },
    async (request) => {
      const { buffer, fields } = await uploadedFile(request);
      let raw: unknown;
      try {
        raw = JSON.parse(fields.mapping ?? '');
      } catch {
        throw new AppError('VALIDATION_ERROR', 'Map the columns before importing', { field: 'mapping' });
      }
      const mapping = ZContactImportMapping.safeParse(raw);
      if (!mapping.success) {
        const issue = mapping.error.issues[0];
        throw new AppError('VALIDATION_ERROR', issue?.message ?? 'Map the columns before importing', {
          field: `mapping.${issue?.path.join('.') ?? ''}`,
        });
      }
      return importContacts(deps, tenantOf(request).subaccountId, buffer, mapping.data);
    },
  );
};
