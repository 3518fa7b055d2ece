import { z } from 'zod';

export const TICKET_CATEGORIES = ['question', 'problem', 'billing', 'feature'] as const;
export const TICKET_CATEGORY_LABELS: Record<(typeof TICKET_CATEGORIES)[number], string> = {
  question: 'A question',
  problem: 'Something does not work',
  billing: 'Billing and plans',
  feature: 'A feature request',
};
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export const TICKET_PRIORITIES = ['normal', 'priority'] as const;

export const ZCreateTicketRequest = z.object({
  subject: z.string().trim().min(3, 'Please enter a subject').max(150, 'Keep the subject under 150 characters'),
  message: z
    .string()
    .trim()
    .min(10, 'Please describe what you need in at least 10 characters')
    .max(5000, 'Keep the message under 5000 characters'),
  category: z.enum(TICKET_CATEGORIES),
  /** The page the user was on (a path of this site), for context. */
  page: z
    .string()
    .max(300)
    .regex(/^\/[^\s]*$/, 'A path of this site')
    .optional(),
});
export type TCreateTicketRequest = z.infer<typeof ZCreateTicketRequest>;

export const ZTicket = z.object({
  id: z.string(),
  subject: z.string(),
  message: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(TICKET_PRIORITIES),
  subaccountName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TTicket = z.infer<typeof ZTicket>;

/** Who wrote a message of a ticket's thread: the platform's operator or the customer. */
export const TICKET_MESSAGE_AUTHORS = ['operator', 'customer'] as const;

/** A message of a ticket's thread after its first one (which is the ticket's own `message`). */
export const ZTicketMessage = z.object({
  id: z.string(),
  author: z.enum(TICKET_MESSAGE_AUTHORS),
  body: z.string(),
  createdAt: z.string(),
});
export type TTicketMessage = z.infer<typeof ZTicketMessage>;

/** A ticket with its thread, oldest message first: what the customer's Support page shows. */
export const ZTicketWithThread = ZTicket.extend({ messages: z.array(ZTicketMessage) });
export type TTicketWithThread = z.infer<typeof ZTicketWithThread>;

/**
 * A message on a ticket, from the operator or the customer. `clientId` is an id the sender's screen
 * makes once per message (a UUID): the same message posted twice is stored and mailed once.
 */
export const ZTicketReplyRequest = z.object({
  message: z.string().trim().min(1, 'Please write a message').max(5000, 'Keep the message under 5000 characters'),
  clientId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'An id of 8 to 64 letters, digits, dashes or underscores'),
});
export type TTicketReplyRequest = z.infer<typeof ZTicketReplyRequest>;

export const ZTicketListResponse = z.object({
  tickets: z.array(ZTicketWithThread),
  total: z.number().int(),
  /** Whether the agency's plan includes priority support. */
  prioritySupport: z.boolean(),
  /** Whether tickets are emailed to an operator address (SUPPORT_EMAIL is set). */
  emailed: z.boolean(),
});
export type TTicketListResponse = z.infer<typeof ZTicketListResponse>;

/** A video per guide, from the operator's list; guides without one show the written article. */
export const ZVideoGuides = z.object({ videos: z.record(z.string(), z.string()) });
export type TVideoGuides = z.infer<typeof ZVideoGuides>;

/**
 * A privacy-friendly player address for a video link: YouTube through youtube-nocookie.com,
 * Vimeo with do-not-track; other https addresses are used as given. Null when not https.
 */
export const privacyEmbedUrl = (url: string): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.replace(/^www\./, '');
  const youtubeId =
    host === 'youtu.be'
      ? parsed.pathname.slice(1)
      : host === 'youtube.com' || host === 'm.youtube.com'
        ? parsed.pathname.startsWith('/embed/')
          ? parsed.pathname.slice(7)
          : parsed.searchParams.get('v')
        : host === 'youtube-nocookie.com' && parsed.pathname.startsWith('/embed/')
          ? parsed.pathname.slice(7)
          : null;
  if (youtubeId !== null) {
    return /^[\w-]{6,20}$/.test(youtubeId) ? `https://www.youtube-nocookie.com/embed/${youtubeId}` : null;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
    return /^\d{4,12}$/.test(id) ? `https://player.vimeo.com/video/${id}?dnt=1` : null;
  }
  return parsed.toString();
};
