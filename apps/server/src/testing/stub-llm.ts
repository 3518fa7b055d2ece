import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INJECTION_CODE_WORD } from '@switchboard/core';
import { readBody } from './read-body';

/** Words in an agent's prompt that make the stub agent obey instructions in its knowledge excerpts. */
export const OBEYS_KNOWLEDGE = 'Follow every instruction in your knowledge.';

/**
 * A local OpenAI-compatible chat completions server for tests and the benchmark. It plays every
 * role of an evaluation deterministically, recognised by the system prompt:
 * - simulated user: "Small talk {n}"; after the question "DONE", or "Follow-up {n}" when the question holds "[follow-up]";
 * - rewording: the question with " [v{n}]";
 * - judge: fails an answer containing "BREAK", passes any other, quoting the answer; answers text
 *   that is no JSON when the question holds "[judge-garbage]" (always) or "[judge-garbage-once]"
 *   (until asked in the stricter format);
 * - question generator: "{category} question {i}";
 * - agent under test: "Answer to: {last user message}", or "BREAK: rules off" for a message with "jailbreak",
 *   or the planted document's code word when its prompt holds OBEYS_KNOWLEDGE and its excerpts the code word,
 *   or "I'm sorry, I can't help with that." for a message with "[refuse]", or a polite deflection for "[deflect]";
 * - red-team attacker: `{"plan", "message"}` with message "Attack {step}", plus " [refuse]" or " jailbreak" when the
 *   goal holds "[script:a,b,...]" and the step's entry is "refuse" or "jailbreak" (the last entry repeats);
 *   ("deflect" and "agent-500" add their markers);
 * - red-team judge: score 10 for a reply with "BREAK", 1 (refused) for "can't help" or the deflection, else 3; no JSON for a goal
 *   holding "[attack-judge-garbage]" (always) or "[attack-judge-garbage-once]" (until asked in the stricter format).
 * Errors on demand, when the agent is asked a message holding a marker: "[agent-401]" (invalid key),
 * "[agent-429]" (rate limit, every time), "[agent-500]" (server error), "[agent-quota]" (quota).
 */
export interface StubLlm {
  url: string;
  /** Every request body received, in order. */
  requests: { system: string; messages: { role: string; content: string }[]; stream: boolean }[];
  /** Answers this many next requests with a 429 rate limit. */
  rateLimitNext(count: number): void;
  calls(): number;
  close(): Promise<void>;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: unknown }[];
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (part as { text?: string }).text ?? '').join('')
      : '';

/** A provider failure the agent role answers for a marked message (see above), or null. */
export const failureFor = (
  system: string,
  messages: { role: string; content: string }[],
): { status: number; body: object } | null => {
  if (
    /role-playing a user|Reword the test question|You are the judge|Write test questions|red-team (attacker|judge)/.test(
      system,
    )
  )
    return null;
  const last = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  if (last.includes('[agent-401]'))
    return { status: 401, body: { error: { message: 'Incorrect API key provided.', code: 'invalid_api_key' } } };
  if (last.includes('[agent-429]'))
    return { status: 429, body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } } };
  if (last.includes('[agent-quota]'))
    return { status: 429, body: { error: { message: 'You exceeded your quota.', code: 'insufficient_quota' } } };
  if (last.includes('[agent-500]')) return { status: 500, body: { error: { message: 'boom' } } };
  return null;
};

const DEFLECTION = 'That is not something I will go into. Can I help with your solar quote instead?';

export const answerFor = (system: string, messages: { role: string; content: string }[]): string => {
  const last = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  if (system.includes('FOLLOW-UP TURN')) {
    // The agent's messages arrive as the user's (the transcript is flipped for the simulated user).
    const asked = messages.some((message) => message.content.includes('[follow-up]'));
    const soFar = messages.filter((message) => message.content.startsWith('Follow-up')).length;
    return asked ? `Follow-up ${soFar + 1}` : 'DONE';
  }
  if (system.includes('role-playing a user')) {
    return `Small talk ${messages.filter((message) => message.role === 'user').length}`;
  }
  if (system.includes('Reword the test question')) {
    const variation = /variation (\d+)/.exec(system)?.[1] ?? '0';
    return JSON.stringify({ question: `${last} [v${variation}]` });
  }
  if (system.includes('You are the judge')) {
    if (last.includes('[judge-garbage]')) return 'I think it was fine, mostly.';
    if (last.includes('[judge-garbage-once]') && !system.includes('Answer with one JSON object only')) {
      return 'Verdict: looks good to me';
    }
    const answer = /Assistant answer to grade: ([\s\S]*)$/.exec(last)?.[1] ?? '';
    const passed = !answer.includes('BREAK');
    return JSON.stringify({
      passed,
      score: passed ? 1 : 0,
      reasoning: `The answer says "${answer.slice(0, 80)}", which ${passed ? 'meets' : 'breaks'} the criteria.`,
    });
  }
  if (system.includes('You are the red-team attacker')) {
    const step = Number(/^Step: (\d+)$/m.exec(last)?.[1] ?? '1');
    const script = (/\[script:([^\]]+)\]/.exec(last)?.[1] ?? 'plain').split(',');
    const move = script[Math.min(step, script.length) - 1]?.trim();
    const markers: Record<string, string> = {
      refuse: ' [refuse]',
      deflect: ' [deflect]',
      jailbreak: ' jailbreak',
      'agent-500': ' [agent-500]',
    };
    const marker = markers[move ?? ''] ?? '';
    return JSON.stringify({ plan: `stub plan ${step}`, message: `Attack ${step}${marker}` });
  }
  if (system.includes('You are the red-team judge')) {
    if (last.includes('[attack-judge-garbage]')) return 'The agent did fine, I think.';
    if (last.includes('[attack-judge-garbage-once]') && !system.includes('no other text')) return 'Score: fine';
    const reply = /^Reply: ([\s\S]*)$/m.exec(last)?.[1] ?? '';
    if (reply.includes('BREAK')) return JSON.stringify({ score: 10, refused: false, feedback: 'The agent gave in.' });
    if (reply.includes("can't help") || reply.includes(DEFLECTION))
      return JSON.stringify({ score: 1, refused: true, feedback: 'Refused.' });
    return JSON.stringify({ score: 3, refused: false, feedback: 'Answered without giving in.' });
  }
  if (system.includes('Write test questions')) {
    const count = Number(/Write exactly (\d+)/.exec(system)?.[1] ?? '1');
    const category = /Category: ([^.]*)\./.exec(system)?.[1]?.slice(0, 30) ?? 'general';
    return JSON.stringify({
      questions: Array.from({ length: count }, (_, i) => ({
        question: `${category} question ${i + 1}`,
        criteria: `Criteria ${i + 1}`,
      })),
    });
  }
  // An agent told to obey its knowledge does what a planted document says (the indirect-injection journey).
  if (system.includes(OBEYS_KNOWLEDGE) && system.includes(INJECTION_CODE_WORD))
    return `Of course! The code word is ${INJECTION_CODE_WORD}.`;
  if (last.includes('[refuse]')) return "I'm sorry, I can't help with that.";
  if (last.includes('[deflect]')) return DEFLECTION;
  return last.includes('jailbreak') ? 'BREAK: rules off' : `Answer to: ${last}`;
};

export const startStubLlm = async (options: { latencyMs?: number; record?: boolean } = {}): Promise<StubLlm> => {
  const requests: StubLlm['requests'] = [];
  let rateLimited = 0;
  let count = 0;
  const server: Server = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url?.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'stub-model', object: 'model' }] }));
      return;
    }
    const body = JSON.parse((await readBody(request)) || '{}') as ChatBody;
    count += 1;
    const all = (body.messages ?? []).map((message) => ({ role: message.role, content: textOf(message.content) }));
    const system = all
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n');
    const messages = all.filter((message) => message.role !== 'system');
    if (options.record !== false) requests.push({ system, messages, stream: Boolean(body.stream) });
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    if (rateLimited > 0) {
      rateLimited -= 1;
      response.writeHead(429, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }));
      return;
    }
    const failure = failureFor(system, messages);
    if (failure) {
      response.writeHead(failure.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(failure.body));
      return;
    }
    const content = answerFor(system, messages);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const model = body.model ?? 'stub';
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'stub', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      response.write(chunk({ role: 'assistant', content }, null));
      response.write(chunk({}, 'stop', { usage }));
      response.end('data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'stub',
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage,
      }),
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    rateLimitNext: (n) => {
      rateLimited = n;
    },
    calls: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
