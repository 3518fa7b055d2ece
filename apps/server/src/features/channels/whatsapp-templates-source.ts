import { type TWhatsappTemplateOption, whatsappTemplateKeys } from '@switchboard/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';

/**
 * Where a WhatsApp connection's approved templates come from: Twilio's Content API for a connection
 * with Twilio credentials, a few labelled sample templates for a sandbox connection.
 */
export interface WhatsappTemplateSource {
  list(): Promise<TWhatsappTemplateOption[]>;
}

export interface ContentApiSettings {
  /** TWILIO_CONTENT_API_URL: https://content.twilio.com, or a stand-in in tests. */
  baseUrl: string;
  username: string;
  password: string;
  timeoutMs?: number;
}

/** Templates read per page, and pages read at most (Twilio keeps at most a few thousand per account). */
const PAGE_SIZE = 100;
const MAX_PAGES = 30;

/** One resource of GET /v1/ContentAndApprovals, parsed at the edge: only what the list needs. */
const ZApproval = z
  .object({ status: z.string().optional(), name: z.string().optional(), category: z.string().optional() })
  .passthrough();
const ZContentResource = z.object({
  sid: z.string(),
  friendly_name: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  types: z.record(z.string(), z.unknown()).nullable().optional(),
  approval_requests: ZApproval.extend({ whatsapp: ZApproval.nullable().optional() }).nullable().optional(),
});
const ZContentPage = z.object({
  contents: z.array(z.unknown()),
  meta: z.object({ next_page_url: z.string().nullable().optional() }).optional(),
});

/** The text a person reads: the body of the first content type that has one (a card's title otherwise). */
const bodyOf = (types: Record<string, unknown> | null | undefined): string => {
  for (const value of Object.values(types ?? {})) {
    const type = value as { body?: unknown; title?: unknown };
    if (typeof type?.body === 'string' && type.body.trim()) return type.body;
  }
  for (const value of Object.values(types ?? {})) {
    const type = value as { title?: unknown };
    if (typeof type?.title === 'string' && type.title.trim()) return type.title;
  }
  return '';
};

/** An approved template as the list shows it, or null for one WhatsApp has not approved. */
export const approvedTemplateOf = (raw: unknown): TWhatsappTemplateOption | null => {
  const parsed = ZContentResource.safeParse(raw);
  if (!parsed.success) return null;
  const content = parsed.data;
  const approval = content.approval_requests?.whatsapp ?? content.approval_requests;
  if (approval?.status?.toLowerCase() !== 'approved') return null;
  if (!/^HX[0-9a-fA-F]{32}$/.test(content.sid)) return null;
  const body = bodyOf(content.types);
  const examples = Object.fromEntries(
    Object.entries(content.variables ?? {}).map(([key, value]) => [key, typeof value === 'string' ? value : '']),
  );
  return {
    contentSid: content.sid,
    name: approval?.name || content.friendly_name || content.sid,
    language: content.language ?? null,
    category: approval?.category || null,
    body: body || '(This template has no text: media or buttons only.)',
    variables: whatsappTemplateKeys(body, Object.keys(examples)).map((key) => ({ key, example: examples[key] ?? '' })),
  };
};

const twilioFailure = async (response: Response): Promise<AppError> => {
  const body = (await response.json().catch(() => null)) as { message?: string; code?: number } | null;
  const detail = body?.message ? `${body.message}${body.code ? ` (Twilio error ${body.code})` : ''}` : '';
  if (response.status === 401 || response.status === 403 || body?.code === 20003)
    return new AppError(
      'TWILIO_AUTH_FAILED',
      "Twilio refused this connection's credentials while listing its WhatsApp templates. Enter them again in the connection's settings.",
      { status: 502 },
    );
  return new AppError(
    'TWILIO_API_ERROR',
    `Twilio could not list this connection's WhatsApp templates (HTTP ${response.status}${detail ? `: ${detail}` : ''}). Try again in a moment.`,
  );
};

/** GET /v1/ContentAndApprovals with the connection's credentials, every page, approved templates only. */
export class ContentApiTemplateSource implements WhatsappTemplateSource {
  constructor(private readonly settings: ContentApiSettings) {}

  /** A page address Twilio gave, sent to the configured origin (a proxy or a stand-in answers for it). */
  private onOrigin(address: string): string {
    const base = new URL(this.settings.baseUrl);
    const url = new URL(address, base);
    url.protocol = base.protocol;
    url.host = base.host;
    return url.href;
  }

  private async page(address: string): Promise<z.infer<typeof ZContentPage>> {
    const { username, password, timeoutMs } = this.settings;
    let response: Response;
    try {
      response = await fetch(address, {
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new AppError(
        'TWILIO_API_ERROR',
        `Twilio could not be reached to list the WhatsApp templates (${(error as Error).message}). Try again in a moment.`,
      );
    }
    if (!response.ok) throw await twilioFailure(response);
    const parsed = ZContentPage.safeParse(await response.json().catch(() => null));
    if (!parsed.success)
      throw new AppError('TWILIO_API_ERROR', 'Twilio answered the template list with something unexpected. Try again.');
    return parsed.data;
  }

  async list(): Promise<TWhatsappTemplateOption[]> {
    const templates: TWhatsappTemplateOption[] = [];
    let next: string | null | undefined = this.onOrigin(`/v1/ContentAndApprovals?PageSize=${PAGE_SIZE}`);
    for (let pages = 0; next && pages < MAX_PAGES; pages += 1) {
      const page = await this.page(next);
      for (const raw of page.contents) {
        const template = approvedTemplateOf(raw);
        if (template) templates.push(template);
      }
      next = page.meta?.next_page_url ? this.onOrigin(page.meta.next_page_url) : null;
    }
    return templates;
  }
}

/** The sandbox's sample templates: labelled as such, sent nowhere but the sandbox phone. */
export const SANDBOX_TEMPLATES: TWhatsappTemplateOption[] = [
  {
    contentSid: `HX${'5a'.repeat(16)}`,
    name: 'Sandbox: appointment reminder',
    language: 'en',
    category: 'UTILITY',
    body: 'Hi {{1}}, this is a reminder of your appointment on {{2}}. Reply YES to confirm.',
    variables: [
      { key: '1', example: 'Ada' },
      { key: '2', example: 'Friday at 10:00' },
    ],
  },
  {
    contentSid: `HX${'5b'.repeat(16)}`,
    name: 'Sandbox: order update',
    language: 'en',
    category: 'UTILITY',
    body: 'Hello {{first_name}}, your order {{order_number}} is on its way.',
    variables: [
      { key: 'first_name', example: 'Ada' },
      { key: 'order_number', example: 'A-1042' },
    ],
  },
  {
    contentSid: `HX${'5c'.repeat(16)}`,
    name: 'Sandbox: follow-up',
    language: 'en',
    category: 'MARKETING',
    body: 'Hi {{1}}, thanks for getting in touch. Reply to this message to carry on the conversation.',
    variables: [{ key: '1', example: 'Ada' }],
  },
];

export class SandboxTemplateSource implements WhatsappTemplateSource {
  async list(): Promise<TWhatsappTemplateOption[]> {
    return SANDBOX_TEMPLATES;
  }
}
