import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible server for tests and the benchmark (real HTTP on 127.0.0.1, random
 * port). Its behaviour is chosen by the model name:
 * - `stub-quota`, `stub-ratelimit`, `stub-missing`, `stub-server`: the provider errors;
 * - `stub-slow`: answers after 5 s; anything else answers "Stub reply to: <last user message>",
 *   or calls the first tool offered (then reports what the tool returned).
 * `/embeddings` answers deterministic vectors in which synonyms meet (see `stubEmbeddings`).
 * The API key `bad-key` is refused as invalid. `latencyMs` delays every answer (and the first
 * streamed chunk).
 */

export interface OpenAiStub {
  url: string;
  requests: { path: string; body: unknown; authorization?: string }[];
  close(): Promise<void>;
}

type ChatBody = {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content?: unknown; tool_calls?: unknown }[];
  tools?: { function?: { name?: string; parameters?: { properties?: Record<string, unknown> } } }[];
};

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const providerError = (res: http.ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { error: { message, type: code, code } });

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : '';

type EmbeddingsBody = { input?: string | string[]; model?: string; dimensions?: number };

/** Words that mean the same thing share one dimension, so the stub's vectors find meaning, not spelling. */
const CONCEPTS: string[][] = [
  ['fee', 'fees', 'price', 'prices', 'pricing', 'cost', 'costs', 'charge', 'charges', 'pay', 'pounds', 'much'],
  ['open', 'opening', 'hours', 'monday', 'friday', 'closed', 'when'],
  ['parking', 'park', 'car', 'cars'],
];

/**
 * `/embeddings`: a deterministic vector per text of the requested size (1536 by default), counting
 * each word in its concept's dimension, or in a hashed one.
 */
const stubEmbeddings = (body: EmbeddingsBody) => {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
  const dims = body.dimensions ?? 1536;
  const data = inputs.map((text, index) => {
    const vector = new Array<number>(dims).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const concept = CONCEPTS.findIndex((words) => words.includes(word));
      const hash = [...word].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 100_003, 7);
      const dim = concept >= 0 ? concept : CONCEPTS.length + (hash % (dims - CONCEPTS.length));
      vector[dim] = (vector[dim] ?? 0) + (concept >= 0 ? 3 : 1);
    }
    return { object: 'embedding', index, embedding: vector };
  });
  const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const startOpenAiStub = async (options: { latencyMs?: number } = {}): Promise<OpenAiStub> => {
  const latency = options.latencyMs ?? 0;
  const requests: OpenAiStub['requests'] = [];
  let counter = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as ChatBody) : {};
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ path, body, authorization: req.headers.authorization });
    if (latency) await sleep(latency);
    if (req.headers.authorization === 'Bearer bad-key') {
      return providerError(res, 401, 'invalid_api_key', 'Incorrect API key provided: bad-key.');
    }
    if (req.method === 'GET' && path.endsWith('/models')) {
      return json(res, 200, { object: 'list', data: [{ id: 'stub-large' }, { id: 'stub-small' }] });
    }
    if (req.method === 'POST' && path.endsWith('/embeddings'))
      return json(res, 200, stubEmbeddings(body as EmbeddingsBody));
    if (req.method !== 'POST' || !path.endsWith('/chat/completions'))
      return json(res, 404, { error: { message: 'No route' } });
    const model = body.model ?? 'stub';
    if (model === 'stub-quota') {
      return providerError(res, 429, 'insufficient_quota', 'You exceeded your current quota.');
    }
    if (model === 'stub-ratelimit') return providerError(res, 429, 'rate_limit_exceeded', 'Slow down.');
    if (model === 'stub-missing') return providerError(res, 404, 'model_not_found', 'The model does not exist.');
    if (model === 'stub-server') return json(res, 500, { error: { message: 'boom' } });
    if (model === 'stub-slow') await sleep(5000);

    const messages = body.messages ?? [];
    const lastUserIndex = messages.map((m) => m.role).lastIndexOf('user');
    const toolMessages = messages.slice(lastUserIndex + 1).filter((m) => m.role === 'tool');
    const tool = body.tools?.[0]?.function;
    counter += 1;
    const id = `chatcmpl-${counter}`;
    const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };
    let message: { role: 'assistant'; content: string | null; tool_calls?: unknown[] };
    if (tool?.name && !toolMessages.length) {
      const args = Object.fromEntries(Object.keys(tool.parameters?.properties ?? {}).map((key) => [key, 'stub']));
      message = {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `call_${counter}`, type: 'function', function: { name: tool.name, arguments: JSON.stringify(args) } },
        ],
      };
    } else if (toolMessages.length) {
      message = { role: 'assistant', content: `Tool said: ${textOf(toolMessages[0]?.content)}` };
    } else {
      message = { role: 'assistant', content: `Stub reply to: ${textOf(messages[lastUserIndex]?.content)}` };
    }
    const finish = message.tool_calls ? 'tool_calls' : 'stop';
    if (!body.stream) {
      return json(res, 200, {
        id,
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: unknown, finishReason: string | null = null, extra: object = {}) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    if (message.tool_calls) {
      const call = message.tool_calls[0] as { id: string; function: { name: string; arguments: string } };
      send({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: call.function }] });
    } else {
      for (const word of (message.content ?? '').match(/\S+\s*/g) ?? []) send({ content: word });
    }
    send({}, finish, { usage });
    res.write('data: [DONE]\n\n');
    res.end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
