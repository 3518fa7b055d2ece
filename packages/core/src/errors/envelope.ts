import { z } from 'zod';

/** Every API error answers with this envelope (DESIGN.md, API conventions). */
export const ZErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    support_id: z.string().regex(/^[0-9a-f]{32}$/),
    field: z.string().optional(),
    reason: z.string().optional(),
  }),
});
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

/** A 32-hex support reference is shown upper case. */
export const formatSupportReference = (supportId: string): string => supportId.toUpperCase();
