import { z } from 'zod';
import { isSafeReturnPath } from './return-path';

/** Email as the sign-in dialog sends it: trimmed and lower-cased, 'Email is required' when empty. */
export const ZEmail = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email('Please enter a valid email address'));

export const ZCheckUserQuery = z.object({ email: ZEmail });
export const ZCheckUserResponse = z.object({
  exists: z.boolean(),
  hasAccess: z.boolean(),
  needsVerification: z.boolean(),
});
export type TCheckUserResponse = z.infer<typeof ZCheckUserResponse>;

export const ZPreRegisterRequest = z.object({
  email: ZEmail,
  emailconsent: z.boolean().optional().default(false),
});
export type TPreRegisterRequest = z.input<typeof ZPreRegisterRequest>;
export const ZPreRegisterResponse = z.object({ success: z.boolean(), userId: z.string() });

export const ZCheckLinkedAccessQuery = z.object({ email: ZEmail });
export const ZCheckLinkedAccessResponse = z.object({ hasLinkedAccess: z.boolean() });

/**
 * A return URL is a same-site path only (see return-path.ts); anything else is dropped, so the
 * caller lands on the default page instead of another site.
 */
export const ZReturnPath = z
  .string()
  .max(2000)
  .refine(isSafeReturnPath, { message: 'Return URL must be a path on this site' })
  .optional()
  .catch(undefined);

export const ZDirectLoginRequest = z.object({ email: ZEmail, returnUrl: ZReturnPath.optional() });
export const ZDirectLoginResponse = z.object({ redirectUrl: z.string() });

export const ZMagicLinkRequest = z.object({
  email: ZEmail,
  callbackURL: ZReturnPath.optional(),
  emailconsent: z.boolean().optional(),
  /** The slug of the agency whose sign-in page (`/a/{slug}`) the person signs in from. */
  agency: z.string().trim().max(40).optional(),
});
export const ZMagicLinkResponse = z.object({ sent: z.boolean() });

export const ZConfirmLinkRequest = z.object({ token: z.string().min(16).max(200) });
export const ZConfirmLinkResponse = z.object({ redirectUrl: z.string() });

export const ZSessionUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZSessionResponse = z.object({
  user: ZSessionUser.nullable(),
  providers: z.object({ google: z.boolean(), email: z.boolean(), directLogin: z.boolean() }),
  /** Whether the signed-in user is one of the platform's operators (OPERATOR_EMAILS): /operator is theirs. */
  isOperator: z.boolean(),
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

export const ZOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;
export const ZOutboxList = z.object({ messages: z.array(ZOutboxMessage) });

/** The default landing after sign-in, and after the direct-login bypass. */
export const POST_LOGIN_PATH = '/agents/create';
export const DIRECT_LOGIN_PATH = '/agents';
