import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import {
  APICallError,
  InvalidResponseDataError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
} from '@ai-sdk/provider';
import { AppError } from '../../platform/errors';
import { outboundSenderOf, type SendOutbound } from '../../platform/outbound';

/**
 * A plain chat call (no tools, no structured output) on a provider that speaks OpenAI's chat
 * completions (OpenAI, OpenRouter, OpenAI-compatible servers), sent over the server's outbound
 * connections and read straight from the socket: one JSON.parse for an answer, one per event of a
 * streamed one. The AI SDK's path builds a web Response, a stream pipeline and a schema check per
 * chunk around the same bytes, a sixth of a chat turn's CPU.
 *
 * The request is the SDK model's own (its getArgs and transformRequestBody: each model's
 * parameters, system-message role and token field stay the SDK's), and failures are the SDK's
 * APICallError with the same status, body and data, so mapProviderError reads them as before.
 * Models of other providers, or whose SDK internals are not there, answer null: callPlain then
 * calls the model's doGenerate/doStream.
 */

export interface PlainCallResult {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export interface ChatWire {
  call(options: LanguageModelV3CallOptions, onDelta?: (text: string) => void): Promise<PlainCallResult>;
}

/** The parts of an SDK chat model (OpenAIChatLanguageModel, OpenAICompatibleChatLanguageModel) the wire uses. */
interface SdkChatModel {
  provider: string;
  modelId: string;
  getArgs(options: LanguageModelV3CallOptions): Promise<{ args: Record<string, unknown> }>;
  transformRequestBody?: (args: Record<string, unknown>) => Record<string, unknown>;
  config: {
    url(options: { path: string; modelId: string }): string;
    headers(): Record<string, string | undefined>;
    fetch?: typeof fetch;
    includeUsage?: boolean;
  };
}

const isSdkChatModel = (model: unknown): model is SdkChatModel => {
  const candidate = model as Partial<SdkChatModel> | null;
  return (
    typeof candidate?.provider === 'string' &&
    /\.chat$/.test(candidate.provider) &&
    typeof candidate.getArgs === 'function' &&
    typeof candidate.config?.url === 'function' &&
    typeof candidate.config.headers === 'function'
  );
};

/**
 * Bytes of an answer read at most, whole or streamed: far above any chat answer, so a server that
 * never stops sending (a base URL the user gave) cannot fill the process's memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const tooLarge = () => new Error(`The model's answer passed ${MAX_ANSWER_BYTES} bytes`);

/** Status codes the SDK marks as worth retrying (the error keeps the flag, as the SDK's does). */
const retryable = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

const readText = (response: IncomingMessage, signal?: AbortSignal) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        response.destroy(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    response.once('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    response.once('error', (error) => reject(signal?.aborted ? signal.reason : error));
    response.once('close', () => {
      if (!ended) reject(signal?.reason ?? new Error('The connection closed before the answer ended'));
    });
  });

interface ErrorFrame {
  error?: { message?: unknown; code?: unknown; type?: unknown };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

class Wire implements ChatWire {
  constructor(
    private readonly model: SdkChatModel,
    private readonly send: SendOutbound,
  ) {}

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const given = this.model.config.headers();
    for (const name in given) {
      const value = given[name];
      if (value !== undefined) headers[name] = value;
    }
    return headers;
  }

  /** Sends the body; a refusal (status >= 300) is thrown as the SDK's APICallError. */
  private async post(url: string, body: Record<string, unknown>, signal?: AbortSignal) {
    let response: IncomingMessage;
    try {
      response = await this.send(url, { method: 'POST', headers: this.headers(), body: JSON.stringify(body), signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      // A refused address (an app error), an abort or anything not from the socket is passed on as it is.
      if (error instanceof AppError || !(error instanceof Error) || error.name === 'AbortError') throw error;
      throw new APICallError({
        message: `Cannot connect to API: ${error.message}`,
        cause: error,
        url,
        requestBodyValues: body,
        isRetryable: true,
      });
    }
    const status = response.statusCode ?? 502;
    if (status >= 200 && status < 300) return response;
    const text = await readText(response, signal);
    let data: unknown;
    try {
      data = text.trim() ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    const message = isObject(data) && isObject(data.error) ? data.error.message : undefined;
    throw new APICallError({
      message: typeof message === 'string' ? message : (response.statusMessage ?? ''),
      url,
      requestBodyValues: body,
      statusCode: status,
      responseBody: text,
      ...(typeof message === 'string' ? { data } : {}),
      isRetryable: retryable(status),
    });
  }

  async call(options: LanguageModelV3CallOptions, onDelta?: (text: string) => void): Promise<PlainCallResult> {
    const { model } = this;
    const { args } = await model.getArgs(options);
    const url = model.config.url({ path: '/chat/completions', modelId: model.modelId });
    const openai = model.provider.startsWith('openai.');
    const shaped = (body: Record<string, unknown>) => model.transformRequestBody?.(body) ?? body;
    if (!onDelta) return this.answer(url, shaped(args), options.abortSignal, openai);
    const includeUsage = openai || model.config.includeUsage;
    const body = shaped({
      ...args,
      stream: true,
      stream_options: includeUsage ? { include_usage: true } : undefined,
    });
    return this.stream(url, body, onDelta, options.abortSignal);
  }

  private async answer(
    url: string,
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
    openai: boolean,
  ): Promise<PlainCallResult> {
    const response = await this.post(url, body, signal);
    const text = await readText(response, signal);
    let parsed: {
      choices?: { message?: { content?: string | null; refusal?: string | null; audio?: { transcript?: string } } }[];
      usage?: { prompt_tokens?: number | null; completion_tokens?: number | null };
    };
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new APICallError({
        message: 'Failed to process successful response',
        cause,
        url,
        requestBodyValues: body,
        statusCode: response.statusCode,
      });
    }
    const choice = parsed?.choices?.[0];
    if (!choice) throw new InvalidResponseDataError({ data: parsed, message: 'Response did not contain any choices.' });
    const message = choice.message ?? {};
    const content = message.content || (openai ? (message.audio?.transcript ?? '') : '');
    const refusal = openai ? (message.refusal ?? '') : '';
    return {
      text: `${content ?? ''}${refusal}`,
      inputTokens: parsed.usage?.prompt_tokens ?? 0,
      outputTokens: parsed.usage?.completion_tokens ?? 0,
    };
  }

  private async stream(
    url: string,
    body: Record<string, unknown>,
    onDelta: (text: string) => void,
    signal: AbortSignal | undefined,
  ): Promise<PlainCallResult> {
    const response = await this.post(url, body, signal);
    const result: PlainCallResult = { text: '', inputTokens: 0, outputTokens: 0 };
    let output = false;
    let done = false;
    /** One event's data: a chunk of the answer, its usage, or an error frame. */
    const onEvent = (data: string) => {
      if (data === '[DONE]') {
        done = true;
        return;
      }
      const value = (JSON.parse(data) ?? {}) as ErrorFrame & {
        choices?: { delta?: { content?: string | null } | null }[];
        usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
      };
      if (value.error !== undefined) {
        // Before any output the SDK throws the frame as a provider failure; after it, as the stream's error.
        if (!output) {
          const frame = isObject(value.error) ? value.error : {};
          throw new APICallError({
            message: typeof frame.message === 'string' ? frame.message : 'The stream failed before any output',
            url,
            requestBodyValues: body,
            statusCode: 500,
            responseBody: JSON.stringify(value),
            data: value,
            isRetryable: true,
          });
        }
        throw new Error(`The model's stream failed: ${JSON.stringify(value.error)}`);
      }
      if (value.usage) {
        result.inputTokens = value.usage.prompt_tokens ?? 0;
        result.outputTokens = value.usage.completion_tokens ?? 0;
      }
      const delta = value.choices?.[0]?.delta?.content;
      if (delta) {
        output = true;
        result.text += delta;
        onDelta(delta);
      }
    };
    const decoder = new StringDecoder('utf8');
    /**
     * The text of an unfinished line, in the pieces it came in: a chunk without a line break is only
     * kept, so a line that never ends (up to MAX_ANSWER_BYTES) is not joined and searched again
     * for every chunk, which took seconds of the main thread for 16 MB.
     */
    let unfinished: string[] = [];
    let data: string[] = [];
    let size = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) throw tooLarge();
        // Read to the end even after [DONE]: the connection then goes back to the pool.
        if (done) continue;
        const text = decoder.write(chunk);
        unfinished.push(text);
        if (!text.includes('\n')) continue;
        let pending = unfinished.join('');
        unfinished = [];
        let end = pending.indexOf('\n');
        while (end >= 0 && !done) {
          const line = pending.charCodeAt(end - 1) === 13 ? pending.slice(0, end - 1) : pending.slice(0, end);
          pending = pending.slice(end + 1);
          if (line === '') {
            if (data.length) onEvent(data.join('\n'));
            data = [];
          } else if (line.startsWith('data:')) {
            data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
          }
          end = pending.indexOf('\n');
        }
        if (pending) unfinished.push(pending);
      }
      if (!done && data.length) onEvent(data.join('\n'));
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw error;
    } finally {
      if (!response.complete) response.destroy();
    }
    return result;
  }
}

const wires = new WeakMap<object, ChatWire | null>();

/** The wire of a model (kept with it), or null when the model is not an OpenAI-style chat model of the SDK. */
export const chatWireOf = (model: LanguageModelV3): ChatWire | null => {
  const found = wires.get(model);
  if (found !== undefined) return found;
  const sdkModel = isSdkChatModel(model) ? model : null;
  const send = sdkModel ? outboundSenderOf(sdkModel.config.fetch) : null;
  const wire = sdkModel && send ? new Wire(sdkModel, send) : null;
  wires.set(model, wire);
  return wire;
};
