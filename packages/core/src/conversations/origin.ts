import { z } from 'zod';
import type { TChannel } from './schemas';

/**
 * Where a turn (and everything it causes) comes from. Only live work reaches the outside world:
 * outbound webhooks, channel messages, mail, and tools that change something in a connected app.
 * A test never does: an evaluation run (`evaluation`), or a person trying an agent in the product
 * (the agent page's test chat, the designer preview, a demo: `sandbox`). The origin is carried
 * from where a turn starts to every path that could reach outside, and each path refuses a test
 * there (docs/architecture.md, "Side effects").
 */
export const ZOrigin = z.enum(['live', 'sandbox', 'evaluation']);
export type TOrigin = z.infer<typeof ZOrigin>;

/** The origin of a conversation's channel: the evaluation channel, the test and demo channels, or live. */
export const originOfChannel = (channel: TChannel | string): TOrigin =>
  channel === 'evaluation' ? 'evaluation' : channel === 'test' || channel === 'demo' ? 'sandbox' : 'live';

const STRICTNESS: Record<TOrigin, number> = { live: 0, sandbox: 1, evaluation: 2 };

/** The stricter of two origins: a caller can mark a turn as a test, never make a test live. */
export const stricterOrigin = (a: TOrigin, b: TOrigin): TOrigin => (STRICTNESS[a] >= STRICTNESS[b] ? a : b);

/** Whether work of this origin may reach the outside world. */
export const reachesOutside = (origin: TOrigin): boolean => origin === 'live';

/**
 * What a tool call would do: only read (`read`), write to a sandbox of this product (the sandbox
 * app catalogue, whose records live in our database: `sandbox`), or change something outside
 * (`write`; also every tool whose metadata does not say it only reads).
 */
export type TToolEffect = 'read' | 'sandbox' | 'write';

/**
 * Whether a tool call of this effect runs for work of this origin. Live work runs every tool; a
 * test runs read-only tools; a person trying an agent also runs the sandbox catalogue's writes
 * (they reach nothing outside); an evaluation run writes nothing at all, so its conversations stay
 * independent of one another and a run can be repeated.
 */
export const toolRunsFor = (origin: TOrigin, effect: TToolEffect): boolean =>
  origin === 'live' || effect === 'read' || (origin === 'sandbox' && effect === 'sandbox');

/** What a test gives the model (and the transcript) for a tool it did not call. */
export const ZToolNotCalled = z.object({
  notCalled: z.literal(true),
  reason: z.literal('test_run'),
  tool: z.string(),
  arguments: z.unknown(),
  message: z.string(),
});
export type TToolNotCalled = z.infer<typeof ZToolNotCalled>;

export const toolNotCalled = (tool: string, args: unknown): TToolNotCalled => ({
  notCalled: true,
  reason: 'test_run',
  tool,
  arguments: args,
  message:
    'This is a test run: the call was recorded, not made, so nothing changed outside the test. Carry on as if it had succeeded.',
});

/** True for the output of a tool a test did not call. */
export const isToolNotCalled = (output: unknown): output is TToolNotCalled => ZToolNotCalled.safeParse(output).success;

/** The line screens show for such a call. */
export const toolNotCalledLabel = (name: string, input: string) =>
  `Not called in a test run — would call ${name} with ${input}`;

/**
 * Whether an app tool only reads, from the metadata its source gives: Composio's tags (only
 * `readOnlyHint`, none of `createHint`, `updateHint`, `destructiveHint`) or an MCP tool's
 * annotations (`readOnlyHint: true`). A tool whose metadata says nothing writes.
 */
export const appToolReadsOnly = (raw: unknown): boolean => {
  if (!raw || typeof raw !== 'object') return false;
  const record = raw as { tags?: unknown; annotations?: unknown };
  if (Array.isArray(record.tags)) {
    const tags = record.tags.map(String);
    return tags.includes('readOnlyHint') && !tags.some((tag) => WRITING_TAGS.has(tag));
  }
  const annotations = record.annotations as { readOnlyHint?: unknown } | undefined;
  return annotations?.readOnlyHint === true;
};

const WRITING_TAGS = new Set(['createHint', 'updateHint', 'destructiveHint']);
