import { z } from 'zod';

/** List endpoints paginate with a cursor-free page/limit pair. */
export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

export const ZHealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
  redis: z.object({ ok: z.boolean(), latencyMs: z.number() }).nullable(),
  version: z.string(),
});
export type THealthResponse = z.infer<typeof ZHealthResponse>;
