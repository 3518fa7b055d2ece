import { z } from 'zod';

/**
 * Approved WhatsApp templates (Twilio's Content API): the list a connection offers, how each
 * template variable is filled from a contact, and the 24-hour window of a WhatsApp conversation.
 */

export const ZContentSid = z
  .string()
  .trim()
  .regex(/^HX[0-9a-fA-F]{32}$/, 'The template Content SID starts with HX followed by 32 hexadecimal characters');

/** Where a template variable's value comes from: a contact field, an imported column, or a fixed text. */
export const WHATSAPP_VARIABLE_SOURCES = ['first_name', 'last_name', 'phone', 'email', 'custom', 'text'] as const;
export const ZWhatsappVariableSource = z.enum(WHATSAPP_VARIABLE_SOURCES);
export type TWhatsappVariableSource = z.infer<typeof ZWhatsappVariableSource>;

export const WHATSAPP_VARIABLE_SOURCE_LABELS: Record<TWhatsappVariableSource, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  phone: 'Phone',
  email: 'Email',
  custom: 'Custom field',
  text: 'Fixed text',
};

/** One variable's mapping; `value` is the imported column's name (custom) or the text itself (text). */
export const ZWhatsappVariableMapping = z.object({
  source: ZWhatsappVariableSource,
  value: z.string().trim().max(1024).optional(),
});
export type TWhatsappVariableMapping = z.infer<typeof ZWhatsappVariableMapping>;

/** Template variable key ("1", or a named variable such as "first_name") → its mapping. */
export const ZWhatsappVariableMappings = z
  .record(
    z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'A template variable is a number or a name'),
    ZWhatsappVariableMapping,
  )
  .refine((value) => Object.keys(value).length <= 50, 'At most 50 variables');
export type TWhatsappVariableMappings = z.infer<typeof ZWhatsappVariableMappings>;

/** A template of the connection's approved list. */
export const ZWhatsappTemplateOption = z.object({
  contentSid: z.string(),
  /** The template's name at WhatsApp (or its friendly name at Twilio). */
  name: z.string(),
  language: z.string().nullable(),
  category: z.string().nullable(),
  /** Its text with {{1}} or {{name}} placeholders. */
  body: z.string(),
  /** Its variables in order, with the sample values Twilio keeps for them. */
  variables: z.array(z.object({ key: z.string(), example: z.string() })),
});
export type TWhatsappTemplateOption = z.infer<typeof ZWhatsappTemplateOption>;

/** GET /api/channels/{connectionId}/whatsapp-templates */
export const ZWhatsappTemplateList = z.object({
  templates: z.array(ZWhatsappTemplateOption),
  /** The connection sends through the sandbox: these are the sandbox's sample templates. */
  sandbox: z.boolean(),
  /** When the list was read from Twilio (it is kept for a minute). */
  fetchedAt: z.string(),
});
export type TWhatsappTemplateList = z.infer<typeof ZWhatsappTemplateList>;

export const ZWhatsappTemplateListQuery = z.object({
  /** `true` reads the list from Twilio again instead of the minute-old copy. */
  refresh: z.enum(['true', 'false']).optional(),
});

/** POST /api/channels/{connectionId}/whatsapp-templates/preview: the template filled for a sample contact. */
export const ZWhatsappTemplatePreviewRequest = z.object({
  contentSid: ZContentSid,
  variables: ZWhatsappVariableMappings,
  /** The sample contact; without it, the sub-account's most recent contact (or a made-up one). */
  contactId: z.string().max(64).optional(),
});
export type TWhatsappTemplatePreviewRequest = z.infer<typeof ZWhatsappTemplatePreviewRequest>;

export const ZWhatsappTemplatePreview = z.object({
  body: z.string(),
  contentVariables: z.record(z.string(), z.string()),
  /** The sample contact, or null when the sub-account has no contacts yet (sample values are used). */
  contact: z.object({ contactId: z.string(), name: z.string().nullable(), phone: z.string() }).nullable(),
  /** Variables this contact has no value for: such a recipient is skipped at the send. */
  missing: z.array(z.string()),
});
export type TWhatsappTemplatePreview = z.infer<typeof ZWhatsappTemplatePreview>;

/** POST /api/connections/{connectionId}/conversations/{threadId}/whatsapp-template: a template from the inbox. */
export const ZWhatsappTemplateSendRequest = z.object({
  contentSid: ZContentSid,
  /** The value of each template variable, as typed (prefilled from the contact). */
  values: z
    .record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.string().trim().max(1024))
    .refine((value) => Object.keys(value).length <= 50, 'At most 50 variables'),
});
export type TWhatsappTemplateSendRequest = z.infer<typeof ZWhatsappTemplateSendRequest>;

/** GET /api/connections/{connectionId}/conversations/{threadId}/whatsapp-window */
export const ZWhatsappWindow = z.object({
  /** WhatsApp threads only: other channels have no window here. */
  applies: z.boolean(),
  open: z.boolean(),
  /** When the contact last wrote (the window's start), or null if never. */
  lastInboundAt: z.string().nullable(),
  /** When free-form replies stop being accepted; null when the contact never wrote. */
  closesAt: z.string().nullable(),
});
export type TWhatsappWindow = z.infer<typeof ZWhatsappWindow>;

export const ZWhatsappTemplateSendResponse = z.object({
  /** The template's text as the contact reads it, also stored in the thread. */
  body: z.string(),
  contentSid: z.string(),
  messageIds: z.array(z.string()),
  /** Sent through the sandbox: it shows on the sandbox phone, nothing reached a phone. */
  sandbox: z.boolean(),
  window: ZWhatsappWindow,
});
export type TWhatsappTemplateSendResponse = z.infer<typeof ZWhatsappTemplateSendResponse>;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]{1,64})\s*\}\}/g;

/** A template's variable keys: those its text uses, in order of first use, then any others declared. */
export const whatsappTemplateKeys = (body: string, declared: string[] = []): string[] => {
  const keys: string[] = [];
  for (const match of body.matchAll(PLACEHOLDER)) if (!keys.includes(match[1] as string)) keys.push(match[1] as string);
  const numeric = (key: string) => (/^\d+$/.test(key) ? Number(key) : Number.POSITIVE_INFINITY);
  for (const key of [...declared].sort((a, b) => numeric(a) - numeric(b) || a.localeCompare(b)))
    if (!keys.includes(key)) keys.push(key);
  return keys;
};

/** The template's text with each variable replaced by its value; keys without a value are `missing`. */
export const fillWhatsappTemplate = (body: string, values: Record<string, string | null | undefined>) => {
  const missing: string[] = [];
  const text = body.replace(PLACEHOLDER, (_whole, key: string) => {
    const value = values[key];
    if (value === undefined || value === null || value.trim() === '') {
      if (!missing.includes(key)) missing.push(key);
      return '';
    }
    return value;
  });
  return { text, missing };
};

export interface WhatsappTemplateContact {
  phone: string;
  name: string | null;
  attributes: Record<string, string>;
}

const words = (name: string | null) => (name ?? '').trim().split(/\s+/).filter(Boolean);

/** A variable's value for one contact, or null when the contact has none. */
export const mappedValue = (mapping: TWhatsappVariableMapping, contact: WhatsappTemplateContact): string | null => {
  const value = (() => {
    switch (mapping.source) {
      case 'first_name':
        return words(contact.name)[0] ?? null;
      case 'last_name':
        return words(contact.name).slice(1).join(' ') || null;
      case 'phone':
        return contact.phone;
      case 'email':
        return contact.attributes.email ?? contact.attributes.Email ?? null;
      case 'custom':
        return mapping.value ? (contact.attributes[mapping.value] ?? null) : null;
      case 'text':
        return mapping.value ?? null;
    }
  })();
  return value?.trim() ? value : null;
};

/** "Window closes in 3 h 12 min" while open, "The 24-hour window has closed" after. */
export const whatsappWindowLabel = (closesAt: string | null, now = Date.now()): string => {
  const left = closesAt ? Date.parse(closesAt) - now : 0;
  if (left <= 0) return 'The 24-hour window has closed: send an approved template.';
  const minutes = Math.max(1, Math.ceil(left / 60_000));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `Window closes in ${hours ? `${hours} h ` : ''}${hours && !rest ? '' : `${rest} min`}`.trim();
};
