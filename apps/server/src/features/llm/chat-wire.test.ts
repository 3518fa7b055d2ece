import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch, outboundPolicy } from '../../platform/outbound';
import { mapProviderError } from '../providers/errors';
import { chatWireOf, MAX_ANSWER_BYTES } from './chat-wire';

/**
 * The chat wire against a local server speaking OpenAI's chat completions over a real socket: it
 * sends the very body the SDK model sends, reads the same text and usage, and its failures map to
 * the same app errors as the SDK's.
 */

interface Seen {
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  socket: number;
}

type Reply = (res: http.ServerResponse, body: Record<string, unknown>) => void;

const answer: Reply = (res, body) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Héllo there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
    }),
  );
};

/** An event stream written a byte at a time (lines and multi-byte characters cut anywhere), with CRLF endings and a comment. */
const streamed: Reply = (res, body) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const event = (value: object) => `data: ${JSON.stringify(value)}\r\n\r\n`;
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    event({
      id: 'c1',
      object: 'chat.completion.chunk',
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  const text = [
    ': a comment line\n\n',
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Hé' }),
    chunk({ content: 'llo' }),
    chunk({ content: ' there' }),
    chunk({}, 'stop'),
    event({
      id: 'c1',
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 11, completion_tokens: 3 },
    }),
    'data: [DONE]\n\n',
  ].join('');
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  const next = () => {
    if (offset >= bytes.length) {
      res.end();
      return;
    }
    res.write(bytes.subarray(offset, offset + 1));
    offset += 1;
    setImmediate(next);
  };
  next();
};

describe('chat wire (OpenAI chat completions without the SDK response path)', () => {
  let server: http.Server;
  let base: string;
  let reply: Reply = answer;
  const seen: Seen[] = [];
  const sockets = new WeakMap<object, number>();
  let socketCount = 0;

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (!sockets.has(req.socket)) sockets.set(req.socket, ++socketCount);
      seen.push({ body, headers: req.headers, socket: sockets.get(req.socket) ?? 0 });
      reply(res, body);
    });
    server.keepAliveTimeout = 10_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const fetch = createOutboundFetch({ policy: null });
  const openai = (model: string) => createOpenAI({ apiKey: 'sk-wire', baseURL: base, fetch }).chat(model);
  const compatible = (model: string) =>
    createOpenAICompatible({ name: 'compatible', apiKey: 'k', baseURL: base, includeUsage: true, fetch }).chatModel(
      model,
    );
  const options = (extra: Partial<LanguageModelV3CallOptions> = {}): LanguageModelV3CallOptions => ({
    prompt: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ],
    maxOutputTokens: 200,
    temperature: 0.4,
    topP: 0.9,
    frequencyPenalty: 0.1,
    stopSequences: ['END'],
    ...extra,
  });
  const wireOf = (model: LanguageModelV3) => {
    const wire = chatWireOf(model);
    if (!wire) throw new Error('no wire for this model');
    return wire;
  };
  /** The body the SDK model itself sends for the same options. */
  const sdkBody = async (model: LanguageModelV3, stream: boolean) => {
    reply = stream ? streamed : answer;
    if (stream) {
      const { stream: parts } = await model.doStream(options());
      for await (const _ of parts) {
        // drained
      }
    } else await model.doGenerate(options());
    return seen.at(-1)?.body;
  };

  it("speaks for OpenAI's and compatible chat models of the SDK, not for Anthropic's or a foreign fetch", () => {
    expect(chatWireOf(openai('gpt-4o-mini'))).not.toBeNull();
    expect(chatWireOf(compatible('llama3'))).not.toBeNull();
    expect(chatWireOf(createAnthropic({ apiKey: 'a', baseURL: base, fetch })('claude-sonnet-4-5'))).toBeNull();
    expect(chatWireOf(createOpenAI({ apiKey: 'a', baseURL: base }).chat('gpt-4o-mini'))).toBeNull();
  });

  it("sends the SDK model's own body and reads the same text and usage", async () => {
    const sent = new Map<string, unknown>();
    for (const model of [openai('gpt-4o-mini'), openai('o3-mini'), compatible('llama3')]) {
      const expected = await sdkBody(model, false);
      reply = answer;
      const result = await wireOf(model).call(options());
      expect(seen.at(-1)?.body).toEqual(expected);
      expect(seen.at(-1)?.headers.authorization).toMatch(/^Bearer /);
      expect(result).toEqual({ text: 'Héllo there', inputTokens: 11, outputTokens: 3 });
      sent.set(model.modelId, seen.at(-1)?.body);
    }
    // A reasoning model gets the SDK's developer role and max_completion_tokens, not temperature.
    const reasoning = sent.get('o3-mini') as { messages: { role: string }[]; max_completion_tokens?: number };
    expect(reasoning.messages[0]?.role).toBe('developer');
    expect(reasoning.max_completion_tokens).toBe(200);
    expect(reasoning).not.toHaveProperty('temperature');
  });

  it('streams deltas from events cut anywhere, with the usage of the last event, on a kept-alive connection', async () => {
    for (const model of [openai('gpt-4o-mini'), compatible('llama3')]) {
      const expected = await sdkBody(model, true);
      reply = streamed;
      const deltas: string[] = [];
      const result = await wireOf(model).call(options(), (text) => deltas.push(text));
      expect(seen.at(-1)?.body).toEqual(expected);
      expect(deltas).toEqual(['Hé', 'llo', ' there']);
      expect(result).toEqual({ text: 'Héllo there', inputTokens: 11, outputTokens: 3 });
    }
    const before = seen.length;
    const model = openai('gpt-4o-mini');
    await wireOf(model).call(options(), () => {});
    await wireOf(model).call(options(), () => {});
    expect(seen[before]?.socket).toBe(seen[before + 1]?.socket);
  });

  it('fails as the SDK does: the same app error for each refusal', async () => {
    const refusals: Reply[] = [
      (res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'Bad key', type: 'invalid_request_error', code: 'invalid_api_key' } }),
        );
      },
      (res) => {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Quota', code: 'insufficient_quota' } }));
      },
      (res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'max_tokens is too large', code: 'invalid_value' } }));
      },
      (res) => {
        res.writeHead(503, 'Service Unavailable');
        res.end();
      },
      (res) => {
        res.writeHead(418, { 'content-type': 'text/html' });
        res.end('<html>teapot</html>');
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', choices: [] }));
      },
    ];
    for (const refusal of refusals) {
      reply = refusal;
      const model = openai('gpt-4o-mini');
      const sdk = await model.doGenerate(options()).then(
        () => null,
        (error: unknown) => mapProviderError(error),
      );
      const wire = await wireOf(model)
        .call(options())
        .then(
          () => null,
          (error: unknown) => mapProviderError(error),
        );
      expect(wire).not.toBeNull();
      expect({ code: wire?.code, message: wire?.message, reason: wire?.reason, status: wire?.status }).toEqual({
        code: sdk?.code,
        message: sdk?.message,
        reason: sdk?.reason,
        status: sdk?.status,
      });
    }
  });

  it('turns an error event before any text into the provider failure it names', async () => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } })}\n\n`);
    };
    const error = await wireOf(openai('gpt-4o-mini'))
      .call(options(), () => {})
      .catch((thrown: unknown) => mapProviderError(thrown));
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', reason: 'rate_limit' });
  });

  it("refuses a user's base URL that points inside the network, as the outbound fetch does", async () => {
    const guarded = createOutboundFetch({ policy: outboundPolicy([]), field: 'baseUrl' });
    const model = createOpenAICompatible({ name: 'compatible', baseURL: base, fetch: guarded }).chatModel('llama3');
    const before = seen.length;
    const error = await wireOf(model)
      .call(options())
      .catch((thrown: unknown) => mapProviderError(thrown));
    expect(error).toMatchObject({ field: 'baseUrl' });
    expect(seen.length).toBe(before);
  });

  it('stops reading an answer that never ends, whole or streamed', async () => {
    const flood = Buffer.alloc(1024 * 1024, 'a');
    for (const stream of [false, true]) {
      reply = (res) => {
        res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
        let sent = 0;
        const more = () => {
          if (res.destroyed || sent > MAX_ANSWER_BYTES + 2 * flood.length) return;
          sent += flood.length;
          if (res.write(flood)) setImmediate(more);
          else res.once('drain', more);
        };
        more();
      };
      const error = await wireOf(openai('gpt-4o-mini'))
        .call(options(), stream ? () => {} : undefined)
        .catch((thrown: unknown) => thrown as Error);
      expect(String((error as Error).message)).toContain(`passed ${MAX_ANSWER_BYTES} bytes`);
    }
  });

  it('stops reading when the signal aborts, with its reason', async () => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'partial' } }] })}\n\n`);
      // Never ends: the caller's signal stops it.
    };
    const controller = new AbortController();
    const deltas: string[] = [];
    const call = wireOf(openai('gpt-4o-mini')).call(options({ abortSignal: controller.signal }), (text) => {
      deltas.push(text);
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(deltas).toEqual(['partial']);
  });
});
