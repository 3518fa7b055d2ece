import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { estimateTokens, OFFLINE_MODEL_ID, offlineReview, ZMentorReviewContext } from '@switchboard/core';
import { type JsonSchema, type OfflineTool, offlineReply, valueForSchema } from './offline-answer';
import { offlineDraft } from './offline-draft';

/** The agent builder's schema (ZAgentDraft): answered by the offline draft writer, not by filling fields. */
const isAgentDraftSchema = (schema: JsonSchema) => {
  const keys = Object.keys(schema.properties ?? {});
  return ['name', 'systemPrompt', 'firstMessage', 'suggestedResponses'].every((key) => keys.includes(key));
};

/** The AI Mentor's schema (ZMentorDraft): answered by the offline reviewer's rules. */
const isMentorDraftSchema = (schema: JsonSchema) => {
  const keys = Object.keys(schema.properties ?? {});
  return keys.length === 2 && keys.includes('summary') && keys.includes('suggestions');
};

/** The review context the mentor sends between <review-context> tags, read back for the offline reviewer. */
export const REVIEW_CONTEXT_TAG = 'review-context';
const mentorReviewOf = (text: string) => {
  const start = text.indexOf(`<${REVIEW_CONTEXT_TAG}>`);
  const end = text.lastIndexOf(`</${REVIEW_CONTEXT_TAG}>`);
  if (start === -1 || end <= start) return { summary: 'The review context could not be read.', suggestions: [] };
  try {
    const parsed = ZMentorReviewContext.safeParse(JSON.parse(text.slice(start + REVIEW_CONTEXT_TAG.length + 2, end)));
    if (parsed.success) return offlineReview(parsed.data);
  } catch {
    // falls through to the answer below
  }
  return { summary: 'The review context could not be read.', suggestions: [] };
};

/**
 * The offline model: a deterministic language model behind the same AI SDK interface as the real
 * providers (LanguageModelV3), so the gateway streams it, runs its tool calls and parses its
 * structured output with the very same code path.
 */

const textOfParts = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('');
};

const toolOutputValue = (output: unknown): unknown => {
  const value = output as { type?: string; value?: unknown } | undefined;
  return value && typeof value === 'object' && 'value' in value ? value.value : output;
};

const readPrompt = (options: LanguageModelV3CallOptions) => {
  const system = options.prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  let lastUserIndex = -1;
  options.prompt.forEach((message, index) => {
    if (message.role === 'user') lastUserIndex = index;
  });
  const lastUser = lastUserIndex >= 0 ? textOfParts(options.prompt[lastUserIndex]?.content) : '';
  const toolResults: { toolName: string; output: unknown }[] = [];
  for (const message of options.prompt.slice(lastUserIndex + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        toolResults.push({ toolName: part.toolName, output: toolOutputValue(part.output) });
    }
  }
  const tools: OfflineTool[] = (options.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [{ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema as JsonSchema }]
      : [],
  );
  const allText = options.prompt.map((message) => textOfParts(message.content)).join('\n');
  return { system, lastUser, toolResults, tools, allText };
};

const usageOf = (inputText: string, outputText: string): LanguageModelV3Usage => {
  const input = estimateTokens(inputText);
  const output = estimateTokens(outputText);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
};

let callCounter = 0;

const answer = (options: LanguageModelV3CallOptions) => {
  const prompt = readPrompt(options);
  const inputText = `${prompt.system}\n${prompt.allText}`;
  if (options.responseFormat?.type === 'json') {
    const schema = (options.responseFormat.schema ?? { type: 'object' }) as JsonSchema;
    const context = prompt.lastUser || prompt.allText;
    const text = JSON.stringify(
      isAgentDraftSchema(schema)
        ? offlineDraft(context)
        : isMentorDraftSchema(schema)
          ? mentorReviewOf(context)
          : valueForSchema(schema, '', context),
    );
    return { kind: 'text' as const, text, usage: usageOf(inputText, text) };
  }
  const reply = offlineReply(prompt);
  if (reply.kind === 'tool-call') {
    callCounter += 1;
    const input = JSON.stringify(reply.input);
    return {
      kind: 'tool-call' as const,
      toolCallId: `offline_call_${callCounter}`,
      toolName: reply.toolName,
      input,
      usage: usageOf(inputText, input),
    };
  }
  return { kind: 'text' as const, text: reply.text, usage: usageOf(inputText, reply.text) };
};

/** Splits a reply into word-sized deltas so streaming screens show it arriving. */
const deltasOf = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [text];

export const createOfflineModel = (modelId = OFFLINE_MODEL_ID): LanguageModelV3 => ({
  specificationVersion: 'v3',
  provider: 'offline',
  modelId,
  supportedUrls: {},
  async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
    const result = answer(options);
    const content: LanguageModelV3Content[] =
      result.kind === 'tool-call'
        ? [{ type: 'tool-call', toolCallId: result.toolCallId, toolName: result.toolName, input: result.input }]
        : [{ type: 'text', text: result.text }];
    return {
      content,
      finishReason: { unified: result.kind === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined },
      usage: result.usage,
      response: { id: 'offline', modelId, timestamp: new Date(0) },
      warnings: [],
    };
  },
  async doStream(options) {
    const result = answer(options);
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'offline', modelId, timestamp: new Date(0) },
    ];
    if (result.kind === 'tool-call') {
      parts.push({ type: 'tool-call', toolCallId: result.toolCallId, toolName: result.toolName, input: result.input });
    } else {
      parts.push({ type: 'text-start', id: 'text' });
      for (const delta of deltasOf(result.text)) parts.push({ type: 'text-delta', id: 'text', delta });
      parts.push({ type: 'text-end', id: 'text' });
    }
    parts.push({
      type: 'finish',
      usage: result.usage,
      finishReason: { unified: result.kind === 'tool-call' ? 'tool-calls' : 'stop', raw: undefined },
    });
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    return { stream };
  },
});
