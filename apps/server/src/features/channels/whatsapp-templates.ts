import type {
  TWhatsappTemplateList,
  TWhatsappTemplateOption,
  TWhatsappTemplatePreviewRequest,
  TWhatsappVariableMappings,
  WhatsappTemplateContact,
} from '@switchboard/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { decryptSecret } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { TtlCache } from '../../platform/ttl-cache';
import { type Channel, ownedChannel } from './connections';
import { refuseSandboxOff } from './sandbox-mode';
import { contacts } from './schema';
import { renderMappedTemplate } from './whatsapp-templates-render';
import {
  ContentApiTemplateSource,
  SandboxTemplateSource,
  type WhatsappTemplateSource,
} from './whatsapp-templates-source';

/** A campaign's template as stored: what was approved, and how each variable is filled. */
export interface StoredWhatsappTemplate {
  contentSid: string;
  name?: string;
  body: string;
  variables?: TWhatsappVariableMappings;
}

/** Lists are kept a minute per connection (and per saved version of its credentials). */
const lists = new TtlCache<{ templates: TWhatsappTemplateOption[]; fetchedAt: string }>(60_000, 2000);

const sourceOf = (deps: Deps, channel: Channel): WhatsappTemplateSource => {
  const { account, connection } = channel;
  if (connection.type !== 'whatsapp')
    throw new AppError('VALIDATION_ERROR', 'Approved templates are for WhatsApp connections.', {
      field: 'connectionId',
    });
  refuseSandboxOff(deps.env, account.transport);
  if (account.transport === 'sandbox') return new SandboxTemplateSource();
  if (account.transport !== 'twilio' || !account.accountSid || !account.secretEncrypted)
    throw new AppError('TWILIO_AUTH_FAILED', 'This connection has no Twilio credentials. Enter them again.', {
      status: 422,
    });
  return new ContentApiTemplateSource({
    baseUrl: deps.env.TWILIO_CONTENT_API_URL,
    username: account.credentialKind === 'api_key' ? (account.apiKeySid ?? '') : account.accountSid,
    password: decryptSecret(deps.env, account.secretEncrypted),
  });
};

const templatesOf = async (deps: Deps, channel: Channel, refresh = false) => {
  const key = `${channel.account.connectionId}:${channel.account.updatedAt.getTime()}`;
  const load = async () => ({
    templates: await sourceOf(deps, channel).list(),
    fetchedAt: new Date().toISOString(),
  });
  if (refresh) {
    const fresh = await load();
    lists.set(key, fresh);
    return fresh;
  }
  return lists.getOrLoad(key, load);
};

/** The connection's approved WhatsApp templates (a minute old at most, or read again with `refresh`). */
export const listWhatsappTemplates = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  refresh = false,
): Promise<TWhatsappTemplateList> => {
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  const list = await templatesOf(deps, channel, refresh);
  return { ...list, sandbox: channel.account.transport === 'sandbox' };
};

/**
 * The approved template with this Content SID; the list is read again once when the kept copy lacks
 * it (approved a moment ago). VALIDATION_ERROR (422) when the connection has no such approved template.
 */
export const approvedTemplate = async (
  deps: Deps,
  channel: Channel,
  contentSid: string,
  field = 'whatsappTemplate.contentSid',
): Promise<TWhatsappTemplateOption> => {
  const find = (list: { templates: TWhatsappTemplateOption[] }) =>
    list.templates.find((template) => template.contentSid.toLowerCase() === contentSid.toLowerCase());
  const found = find(await templatesOf(deps, channel)) ?? find(await templatesOf(deps, channel, true));
  if (!found)
    throw new AppError(
      'VALIDATION_ERROR',
      `${contentSid} is not one of this connection's approved WhatsApp templates. Pick a template from the list.`,
      { field },
    );
  return found;
};

/** The imported columns of the sub-account's contacts (custom fields a variable may use). */
const contactColumns = async (db: Db, subaccountId: string): Promise<Set<string>> => {
  const result = await db.execute(
    sql`SELECT DISTINCT jsonb_object_keys(attributes) AS key FROM ${contacts} WHERE subaccount_id = ${subaccountId} LIMIT 200`,
  );
  return new Set((result as unknown as { rows: { key: string }[] }).rows.map((row) => row.key));
};

/**
 * Every variable of the template mapped, and only those: a custom field must be a column of the
 * contacts, a fixed text must not be empty. VALIDATION_ERROR (422) naming the variable otherwise.
 */
export const checkMappings = async (
  db: Db,
  subaccountId: string,
  template: TWhatsappTemplateOption,
  mappings: TWhatsappVariableMappings,
  field = 'whatsappTemplate.variables',
): Promise<TWhatsappVariableMappings> => {
  const checked: TWhatsappVariableMappings = {};
  let columns: Set<string> | null = null;
  for (const { key } of template.variables) {
    const mapping = mappings[key];
    if (!mapping)
      throw new AppError('VALIDATION_ERROR', `Choose what fills {{${key}}}: a contact field or a fixed text.`, {
        field: `${field}.${key}`,
      });
    if (mapping.source === 'text' && !mapping.value?.trim())
      throw new AppError('VALIDATION_ERROR', `Write the fixed text for {{${key}}}.`, { field: `${field}.${key}` });
    if (mapping.source === 'custom') {
      columns ??= await contactColumns(db, subaccountId);
      if (!mapping.value || !columns.has(mapping.value))
        throw new AppError(
          'VALIDATION_ERROR',
          mapping.value
            ? `"${mapping.value}" is not a field of your contacts. Pick a column imported with the contacts for {{${key}}}.`
            : `Pick the custom field that fills {{${key}}}.`,
          { field: `${field}.${key}` },
        );
    }
    checked[key] = mapping.source === 'text' || mapping.source === 'custom' ? mapping : { source: mapping.source };
  }
  const extra = Object.keys(mappings).find((key) => !template.variables.some((variable) => variable.key === key));
  if (extra)
    throw new AppError('VALIDATION_ERROR', `This template has no variable {{${extra}}}.`, {
      field: `${field}.${extra}`,
    });
  return checked;
};

/** A campaign's picked template, checked against the approved list, stored with its approved text. */
export const resolveCampaignTemplate = async (
  deps: Deps,
  channel: Channel,
  choice: { contentSid: string; variables?: TWhatsappVariableMappings },
): Promise<StoredWhatsappTemplate> => {
  const template = await approvedTemplate(deps, channel, choice.contentSid);
  const variables = await checkMappings(deps.db, channel.connection.subaccountId, template, choice.variables ?? {});
  return { contentSid: template.contentSid, name: template.name, body: template.body, variables };
};

/** The template rendered for a sample contact (the one asked for, or the sub-account's newest). */
export const previewWhatsappTemplate = async (
  deps: Deps,
  subaccountId: string,
  connectionId: string,
  request: TWhatsappTemplatePreviewRequest,
) => {
  const channel = await ownedChannel(deps.db, subaccountId, connectionId);
  const template = await approvedTemplate(deps, channel, request.contentSid, 'contentSid');
  const variables = await checkMappings(deps.db, subaccountId, template, request.variables, 'variables');
  const conditions = [eq(contacts.subaccountId, subaccountId)];
  if (request.contactId) conditions.push(eq(contacts.id, request.contactId));
  const [sample] = await deps.db
    .select({ id: contacts.id, phone: contacts.phone, name: contacts.name, attributes: contacts.attributes })
    .from(contacts)
    .where(and(...conditions))
    .orderBy(desc(contacts.createdAt))
    .limit(1);
  if (request.contactId && !sample)
    throw new AppError('NOT_FOUND', 'This contact does not exist.', { field: 'contactId' });
  const contact: WhatsappTemplateContact = sample
    ? { phone: sample.phone, name: sample.name, attributes: sample.attributes ?? {} }
    : {
        phone: '+15555550123',
        name: 'Ada Lovelace',
        attributes: Object.fromEntries(template.variables.map((v) => [v.key, v.example])),
      };
  const rendered = renderMappedTemplate({ body: template.body, variables }, contact);
  return {
    ...rendered,
    contact: sample ? { contactId: sample.id, name: sample.name, phone: sample.phone } : null,
  };
};
