import { setMaxListeners } from 'node:events';
import type { JSONSchema7, LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import {
  creditsForUsage,
  DEFAULT_MODELS,
  estimateTokens,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  ownKeyCredits,
  PROVIDER_LABELS,
  type TKeyedProviderId,
} from '@switchboard/core';
import type { generateText, ModelMessage, ToolChoice, ToolSet } from 'ai';
import type { ZodType } from 'zod';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newKey } from '../../platform/ids';
import { metrics } from '../../platform/metrics';
import { mapProviderError } from '../providers/errors';
import { listProviderKeys } from '../providers/repo';
import { chatWireOf, type PlainCallResult } from './chat-wire';
import { meter, releaseCredits, reserveCredits } from './credits';
import { schemaValidator } from './json-schema';
import { resolveModel } from './models';

/**
 * The LLM gateway: every model call of the product goes through runModel, which
 * checks credits first, runs the account's provider (or the offline model), maps provider failures
 * to app errors and meters the call on the credit ledger.
 */

export type ProviderId = 'offline' | 'openai' | 'openrouter' | 'anthropic' | 'compatible';
export interface ModelChoice {
  provider: ProviderId;
  model: string;
}

export interface ModelSettings {
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  stopSequences?: string[];
}

export interface RunModelInput {
  accountId: string;
  subaccountId?: string | null;
  choice: ModelChoice;
  system?: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  temperature?: number;
  maxTokens?: number;
  /** Structured output: result.object is parsed and validated. */
  schema?: ZodType;
  /** JSON output asked for by an API caller: any JSON object, or one matching a JSON schema. */
  json?: { schema?: JSONSchema7; name?: string };
  /**
   * The conversation in the AI SDK's own form (tool calls and tool results of an API caller);
   * used instead of `messages` when given.
   */
  modelMessages?: ModelMessage[];
  /** How the model may use the tools (an API caller's tool_choice). */
  toolChoice?: ToolChoice<ToolSet>;
  source: string;
  /** The agent and channel the call answers on (usage breakdown by agent and channel). */
  agentId?: string | null;
  channel?: string | null;
  idempotencyKey?: string;
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  /** Tools the model may call (AI SDK tools with execute); up to `maxSteps` model turns. */
  tools?: ToolSet;
  maxSteps?: number;
  settings?: ModelSettings;
  /** Never fall back to the offline model: without a usable key the call fails with no_api_key. */
  strict?: boolean;
}

export interface RunModelResult {
  text: string;
  object?: unknown;
  model: string;
  offline: boolean;
  usage: { inputTokens: number; outputTokens: number; credits: number };
  toolCalls: { name: string; input: unknown; output: unknown }[];
  /** Calls of tools that have no execute (an API caller's own tools): the caller runs them. */
  pendingToolCalls: { id: string; name: string; input: unknown }[];
}

/**
 * What a call costs: the platform's model prices for the platform's own model (the offline
 * model); a call made with the agency's own provider key pays the provider directly, so only the
 * platform fee is charged (OWN_KEY_CREDITS_PER_1K_TOKENS, see docs/features/billing.md).
 */
const creditsForCall = (resolved: { modelId: string; offline: boolean }, inputTokens: number, outputTokens: number) =>
  resolved.offline
    ? creditsForUsage(resolved.modelId, inputTokens, outputTokens)
    : ownKeyCredits(inputTokens, outputTokens);

/** Output tokens assumed (and the output cap) when the caller sets none. */
const ESTIMATED_OUTPUT_TOKENS = 512;

/**
 * The signal a model call runs under: the caller's (a closed connection) or LLM_TIMEOUT_MS,
 * whichever comes first; `done` stops both once the call is over. One controller and one timer
 * cost a fraction of AbortSignal.timeout with AbortSignal.any, made on every chat turn.
 */
const callAbort = (deps: Deps, signal?: AbortSignal) => {
  // One signal often stops many calls in flight at once (an evaluation run's); each call
  // removes its listener when it ends, so their number is not a leak.
  if (signal) setMaxListeners(0, signal);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    deps.env.LLM_TIMEOUT_MS,
  );
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
};

/** A chat prompt in the model interface's own form. */
const plainPrompt = (system: string | undefined, messages: RunModelInput['messages']): LanguageModelV3Prompt => [
  ...(system ? [{ role: 'system' as const, content: system }] : []),
  ...messages.map((message) => ({ role: message.role, content: [{ type: 'text' as const, text: message.content }] })),
];

/**
 * A plain chat call (no tools, no structured output) made on the model itself: one request, the
 * text streamed to onDelta when given. generateText and streamText add prompt validation and step
 * handling that such a call does not need, at a cost on every chat turn. A model on OpenAI's chat
 * completions is called over its wire (chat-wire.ts), the others through the SDK model.
 */
const callPlain = async (
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  onDelta?: (text: string) => void,
): Promise<PlainCallResult> => {
  const wire = chatWireOf(model);
  if (wire) return wire.call(options, onDelta);
  if (!onDelta) {
    const result = await model.doGenerate(options);
    return {
      text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      inputTokens: result.usage.inputTokens.total ?? 0,
      outputTokens: result.usage.outputTokens.total ?? 0,
    };
  }
  const { stream } = await model.doStream(options);
  let text = '';
  let inputTokens = 0;
  let outputTokens = 0;
  for await (const part of stream) {
    if (part.type === 'text-delta') {
      text += part.delta;
      // Providers often open with an empty delta; the first one sent is the first text.
      if (part.delta) onDelta(part.delta);
    } else if (part.type === 'finish') {
      inputTokens = part.usage.inputTokens.total ?? 0;
      outputTokens = part.usage.outputTokens.total ?? 0;
    } else if (part.type === 'error') {
      throw part.error;
    }
  }
  return { text, inputTokens, outputTokens };
};

export async function runModel(deps: Deps, input: RunModelInput): Promise<RunModelResult> {
  // The AI SDK is loaded by the first model call (a server at rest does not hold it).
  const { generateText, jsonSchema, NoObjectGeneratedError, Output, stepCountIs, streamText } = await import('ai');
  const resolved = await resolveModel(deps, input.accountId, input.choice, { strict: input.strict });
  const promptText = `${input.system ?? ''}\n${input.messages.map((message) => message.content).join('\n')}${
    input.modelMessages ? `\n${JSON.stringify(input.modelMessages)}` : ''
  }`;
  // The estimate (the prompt and the call's output cap; agents always set one) is held in the
  // ledger until the call is metered, so concurrent calls cannot overspend the balance.
  const outputCap = input.maxTokens ?? ESTIMATED_OUTPUT_TOKENS;
  const estimate = creditsForCall(resolved, estimateTokens(promptText), outputCap);
  const holdId = await reserveCredits(deps, {
    accountId: input.accountId,
    subaccountId: input.subaccountId,
    estimate,
  });

  const abort = callAbort(deps, input.signal);
  const common = {
    model: resolved.model,
    system: input.system || undefined,
    messages: input.messages,
    temperature: input.temperature,
    maxOutputTokens: input.maxTokens,
    topP: input.settings?.topP,
    frequencyPenalty: input.settings?.frequencyPenalty,
    presencePenalty: input.settings?.presencePenalty,
    stopSequences: input.settings?.stopSequences?.length ? input.settings.stopSequences : undefined,
    abortSignal: abort.signal,
    maxRetries: 0,
  };

  const started = performance.now();
  const provider = resolved.offline ? 'offline' : input.choice.provider;
  let text = '';
  let object: unknown;
  let inputTokens = 0;
  let outputTokens = 0;
  const toolCalls: RunModelResult['toolCalls'] = [];
  const pendingToolCalls: RunModelResult['pendingToolCalls'] = [];
  const executes = (name: string) => Boolean((input.tools?.[name] as { execute?: unknown } | undefined)?.execute);
  if (input.modelMessages) {
    Object.assign(common, { messages: input.modelMessages });
  }
  if (input.toolChoice) Object.assign(common, { toolChoice: input.toolChoice });
  try {
    const stopWhen = stepCountIs(input.tools ? (input.maxSteps ?? 5) : 1);
    if (input.schema || input.json) {
      const output = input.schema
        ? Output.object({ schema: input.schema })
        : input.json?.schema
          ? Output.object({
              schema: jsonSchema(input.json.schema, { validate: schemaValidator(input.json.schema) }),
              name: input.json.name,
            })
          : Output.json();
      const result = await generateText({
        ...common,
        output,
        ...(input.tools ? { tools: input.tools, stopWhen } : {}),
      } as Parameters<typeof generateText>[0]);
      for (const call of result.toolCalls) {
        if (!executes(call.toolName))
          pendingToolCalls.push({ id: call.toolCallId, name: call.toolName, input: call.input });
      }
      text = result.text;
      object = pendingToolCalls.length ? undefined : result.output;
      inputTokens = result.totalUsage.inputTokens ?? 0;
      outputTokens = result.totalUsage.outputTokens ?? 0;
    } else if (!input.tools && !input.modelMessages) {
      const result = await callPlain(
        resolved.model,
        {
          prompt: plainPrompt(input.system, input.messages),
          maxOutputTokens: common.maxOutputTokens,
          temperature: common.temperature,
          topP: common.topP,
          frequencyPenalty: common.frequencyPenalty,
          presencePenalty: common.presencePenalty,
          stopSequences: common.stopSequences,
          abortSignal: common.abortSignal,
        },
        input.onDelta,
      );
      ({ text, inputTokens, outputTokens } = result);
    } else if (!input.onDelta) {
      // Nobody watches the text arrive: one plain (non-streamed) request per step.
      const result = await generateText({ ...common, tools: input.tools, stopWhen });
      text = result.text;
      for (const call of result.toolCalls) {
        if (!executes(call.toolName))
          pendingToolCalls.push({ id: call.toolCallId, name: call.toolName, input: call.input });
      }
      for (const step of result.steps) {
        for (const part of step.content) {
          if (part.type === 'tool-result')
            toolCalls.push({ name: part.toolName, input: part.input, output: part.output });
          if (part.type === 'tool-error') {
            toolCalls.push({ name: part.toolName, input: part.input, output: { error: String(part.error) } });
          }
        }
      }
      inputTokens = result.totalUsage.inputTokens ?? 0;
      outputTokens = result.totalUsage.outputTokens ?? 0;
    } else {
      const result = streamText({
        ...common,
        tools: input.tools,
        stopWhen,
      });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          text += part.text;
          if (part.text) input.onDelta?.(part.text);
        } else if (part.type === 'tool-call' && !executes(part.toolName)) {
          pendingToolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
        } else if (part.type === 'tool-result') {
          toolCalls.push({ name: part.toolName, input: part.input, output: part.output });
        } else if (part.type === 'tool-error') {
          toolCalls.push({ name: part.toolName, input: part.input, output: { error: String(part.error) } });
        } else if (part.type === 'error') {
          throw part.error;
        }
      }
      const usage = await result.totalUsage;
      inputTokens = usage.inputTokens ?? 0;
      outputTokens = usage.outputTokens ?? 0;
    }
  } catch (error) {
    releaseCredits(deps, input.accountId, holdId);
    metrics.modelCalls.inc({ provider, source: input.source, outcome: 'error' });
    metrics.modelDuration.observe({ provider }, (performance.now() - started) / 1000);
    if (input.signal?.aborted) throw error;
    if (NoObjectGeneratedError.isInstance(error) && input.json) {
      throw new AppError('AI_EMPTY_RESPONSE', 'The model did not answer with JSON matching the response_format.');
    }
    if (NoObjectGeneratedError.isInstance(error)) {
      throw new AppError('AI_EMPTY_RESPONSE', 'The AI service returned an answer in the wrong format.');
    }
    throw mapProviderError(error);
  } finally {
    abort.done();
  }

  if (!inputTokens) inputTokens = estimateTokens(promptText);
  if (!outputTokens) outputTokens = estimateTokens(text);
  const credits = creditsForCall(resolved, inputTokens, outputTokens);
  metrics.modelCalls.inc({ provider, source: input.source, outcome: 'ok' });
  metrics.modelDuration.observe({ provider }, (performance.now() - started) / 1000);
  metrics.modelTokens.inc({ provider, kind: 'input' }, inputTokens);
  metrics.modelTokens.inc({ provider, kind: 'output' }, outputTokens);
  metrics.creditsSpent.inc({ provider, source: input.source }, credits);
  meter(deps, {
    accountId: input.accountId,
    subaccountId: input.subaccountId ?? null,
    model: resolved.modelId,
    inputTokens,
    outputTokens,
    credits,
    idempotencyKey: input.idempotencyKey ?? `llm:${newKey()}`,
    source: input.source,
    holdId,
    agentId: input.agentId ?? null,
    channel: input.channel ?? null,
    billingBasis: resolved.offline ? 'platform' : 'own_key',
  });
  return {
    text,
    ...(input.schema ? { object } : {}),
    model: resolved.offline ? OFFLINE_MODEL_ID : resolved.modelId,
    offline: resolved.offline,
    usage: { inputTokens, outputTokens, credits },
    toolCalls,
    pendingToolCalls,
  };
}

/** The models an account can pick: the offline model, then each provider it has a key for. */
export async function listModelChoices(
  deps: Deps,
  accountId: string,
): Promise<{ provider: ProviderId; model: string; label: string }[]> {
  const rows = await listProviderKeys(deps.db, accountId);
  const choices: { provider: ProviderId; model: string; label: string }[] = [
    { provider: 'offline', model: OFFLINE_MODEL_ID, label: OFFLINE_MODEL_LABEL },
  ];
  const order: TKeyedProviderId[] = ['openai', 'openrouter', 'anthropic', 'compatible'];
  for (const provider of order) {
    const row = rows.find((candidate) => candidate.provider === provider);
    if (!row) continue;
    const models = row.models.length ? row.models : DEFAULT_MODELS[provider];
    for (const model of models) {
      choices.push({ provider, model, label: `${PROVIDER_LABELS[provider]} · ${model}` });
    }
  }
  return choices;
}
