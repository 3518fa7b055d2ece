import { z } from 'zod';

/** Largest CSV accepted for a contact import, and the most rows it may hold. */
export const CONTACT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CONTACT_IMPORT_MAX_ROWS = 50_000;
export const CONTACT_TAG_MAX = 20;

export const ZContactTag = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N} _.-]+$/u, 'Tags use letters, digits, spaces, dots, dashes and underscores');

export const ZContact = z.object({
  contactId: z.string(),
  phone: z.string(),
  name: z.string().nullable(),
  tags: z.array(z.string()),
  optedOut: z.boolean(),
  optedOutAt: z.string().nullable(),
  /**
   * Why the number is on the suppression list: it texted STOP (`keyword`, lifted only by its own
   * START), was marked by hand (`manual`, `migrated`), or a send to it failed for good (`failed`,
   * with the provider's code and message). Null when it gets messages.
   */
  suppression: z
    .object({
      source: z.enum(['keyword', 'manual', 'migrated', 'failed']),
      keyword: z.string().nullable(),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      /** Whether a person of the team can clear it (not a STOP the contact sent). */
      clearable: z.boolean(),
    })
    .nullable(),
  timeZone: z.string().nullable(),
  /** Extra columns kept at import, usable as template variables ({{company}}). */
  attributes: z.record(z.string(), z.string()),
  createdAt: z.string(),
});
export type TContact = z.infer<typeof ZContact>;

export const ZContactList = z.object({
  contacts: z.array(ZContact),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  /** Every tag in use in the sub-account, for audience pickers. */
  tags: z.array(z.string()),
});
export type TContactList = z.infer<typeof ZContactList>;

export const ZContactListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().trim().max(80).optional(),
  tag: z.string().trim().max(40).optional(),
});

export const ZCreateContactRequest = z.object({
  phone: z.string().trim().min(1, 'Enter a phone number').max(40),
  name: z.string().trim().max(120).optional(),
  tags: z.array(ZContactTag).max(CONTACT_TAG_MAX).optional(),
  timeZone: z.string().max(64).optional(),
});
export type TCreateContactRequest = z.infer<typeof ZCreateContactRequest>;

export const ZUpdateContactRequest = z
  .object({
    name: z.string().trim().max(120).nullable().optional(),
    tags: z.array(ZContactTag).max(CONTACT_TAG_MAX).optional(),
    timeZone: z.string().max(64).nullable().optional(),
    /**
     * true: no sender of the sub-account messages the number. false: clears what was set by hand or
     * by a failed send; a STOP the contact sent stays until their own START (409).
     */
    optedOut: z.boolean().optional(),
  })
  .strict();
export type TUpdateContactRequest = z.infer<typeof ZUpdateContactRequest>;

/** Which CSV column holds what. Columns not named are ignored unless listed as attributes. */
export const ZContactImportMapping = z.object({
  phone: z
    .string({ error: 'Pick the column with the phone numbers' })
    .min(1, 'Pick the column with the phone numbers')
    .max(200),
  name: z.string().max(200).optional(),
  tags: z.string().max(200).optional(),
  timeZone: z.string().max(200).optional(),
  attributes: z.array(z.string().max(200)).max(20).optional(),
  /** Tags given to every imported contact. */
  addTags: z.array(ZContactTag).max(5).optional(),
  /** Two-letter country of numbers written without +country code. */
  defaultCountry: z
    .string()
    .regex(/^[A-Z]{2}$/, 'A two-letter country code such as US')
    .optional(),
});
export type TContactImportMapping = z.infer<typeof ZContactImportMapping>;

export const ZContactImportPreview = z.object({
  columns: z.array(z.string()),
  sampleRows: z.array(z.array(z.string())),
  rowCount: z.number(),
  suggestedMapping: z.object({
    phone: z.string().nullable(),
    name: z.string().nullable(),
    tags: z.string().nullable(),
    timeZone: z.string().nullable(),
  }),
});
export type TContactImportPreview = z.infer<typeof ZContactImportPreview>;

export const ZContactImportRejection = z.object({
  /** 1-based line of the CSV (the header is line 1). */
  line: z.number(),
  value: z.string(),
  code: z.enum(['MESSAGE_INVALID_NUMBER', 'DUPLICATE', 'INVALID_TIME_ZONE']),
  message: z.string(),
});
export const ZContactImportReport = z.object({
  imported: z.number(),
  updated: z.number(),
  rejected: z.array(ZContactImportRejection),
  rejectedCount: z.number(),
});
export type TContactImportReport = z.infer<typeof ZContactImportReport>;

/** GET/PATCH /api/channels/{connectId}/messaging-settings: the sub-account's messaging profile. */
export const ZMessagingSettings = z.object({
  timeZone: z.string(),
  defaultCountry: z.string(),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
});
export type TMessagingSettings = z.infer<typeof ZMessagingSettings>;
export const ZClock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time such as 21:00');
export const ZPatchMessagingSettingsRequest = z
  .object({
    timeZone: z.string().max(64).optional(),
    defaultCountry: z
      .string()
      .regex(/^[A-Z]{2}$/, 'A two-letter country code such as US')
      .optional(),
    quietHours: z.object({ start: ZClock, end: ZClock }).nullable().optional(),
  })
  .strict();
