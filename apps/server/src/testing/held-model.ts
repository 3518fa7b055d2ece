import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './read-body';

/**
 * A local OpenAI-compatible model that holds every chat call until the test releases them: calls
 * stay in flight (a slow model) for as long as a test needs, without a timer deciding it.
 */
export interface HeldModel {
  url: string;
  /** Chat calls received so far. */
  received(): number;
  /** Answers every call held now and every later one at once. */
  release(): void;
  /** Holds the calls that come from now on again. */
  hold(): void;
  close(): Promise<void>;
}

const answer = (res: http.ServerResponse, stream: boolean) => {
  const text = 'Held answer.';
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-held',
        object: 'chat.completion',
        created: 0,
        model: 'stub-model',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 0, model: 'stub-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.write(chunk({ role: 'assistant', content: text }, null));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
};

export const startHeldModel = async (): Promise<HeldModel> => {
  let count = 0;
  let released = false;
  const waiting: (() => void)[] = [];
  const server = http.createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}') as { stream?: boolean };
    count += 1;
    const reply = () => {
      if (!res.destroyed) answer(res, body.stream === true);
    };
    if (released) reply();
    else waiting.push(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received: () => count,
    release: () => {
      released = true;
      for (const reply of waiting.splice(0)) reply();
    },
    hold: () => {
      released = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const reply of waiting.splice(0)) reply();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
