import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arbitraryFor } from './zod-arbitrary';

describe('arbitraries from zod schemas', () => {
  it('produces only values the schema accepts, reaching the edges of its limits', () => {
    const schema = z.object({
      name: z.string().trim().min(1).max(120),
      email: z.email(),
      count: z.int().min(1).max(9).optional(),
      color: z.string().regex(/^#[0-9a-f]{6}$/),
      kind: z.enum(['a', 'b']),
      tags: z.array(z.string().max(10)).max(5),
      limit: z.coerce.number().int().min(1).max(100).default(20),
      choice: z.union([z.literal('x'), z.object({ y: z.boolean() })]),
    });
    const seen = fc.sample(arbitraryFor(schema), { numRuns: 300, seed: 7 });
    for (const value of seen) expect(schema.safeParse(value).success).toBe(true);
    expect(seen.some((value) => value.name.length === 120)).toBe(true);
    expect(seen.some((value) => value.count === 9)).toBe(true);
  });
});
