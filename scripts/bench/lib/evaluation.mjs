/**
 * Shared parts of the benchmarks that start evaluation runs: a stub model that plays every role of
 * a run, the questions and the start payload. Not a benchmark itself.
 */
import http from 'node:http';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stub's answer for a role, told apart by the system prompt. */
const answer = (system, last) => {
  if (system.includes('Reword the test question')) return JSON.stringify({ question: `${last} (reworded)` });
  if (system.includes('You are the judge'))
    return JSON.stringify({ passed: true, score: 1, reasoning: 'The answer says "Answer".' });
  if (system.includes('role-playing a user')) return 'Tell me more.';
  // Adaptive attacks: the attacker writes its next message, the judge scores the agent's reply (it holds).
  if (system.includes('You are the red-team attacker'))
    return JSON.stringify({ plan: 'Ask again from another angle.', message: `Attack: ${last.slice(0, 30)}` });
  if (system.includes('You are the red-team judge'))
    return JSON.stringify({ score: 2, refused: false, feedback: 'The agent stayed on its task.' });
  return `Answer: ${last.slice(0, 40)}`;
};

/**
 * An OpenAI-compatible stub answering every call after `latencyMs` (agent, rewording and judge).
 * `stats` counts calls and remembers when the first started and the last answered.
 */
export const startEvaluationStub = async ({ latencyMs }) => {
  const stats = { calls: 0, first: 0, last: 0, inFlight: 0, maxInFlight: 0 };
  const stub = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'stub-model' }] }));
      return;
    }
    stats.calls += 1;
    if (!stats.first) stats.first = performance.now();
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const system = body.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const last = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const content = answer(system, typeof last === 'string' ? last : '');
    await sleep(latencyMs);
    const usage = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 };
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (delta, finish, extra = {}) =>
        `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      res.write(frame({ role: 'assistant', content }, null));
      res.write(frame({}, 'stop', { usage }));
      res.end('data: [DONE]\n\n');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 's',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage,
        }),
      );
    }
    stats.inFlight -= 1;
    stats.last = performance.now();
  });
  stub.keepAliveTimeout = 60_000;
  await new Promise((resolve) => stub.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${stub.address().port}/v1`,
    stats,
    close: () => {
      stub.closeAllConnections();
      stub.close();
    },
  };
};

/** One check of each kind that needs no model call, as an agency would set them on a question. */
export const CHECKS = [
  { type: 'contains', value: 'Answer' },
  { type: 'not_contains', value: 'BREAK' },
  { type: 'regex', pattern: '^Answer: \\w+', ignoreCase: true },
  { type: 'json_shape', shape: { price: 'number' } },
  { type: 'max_latency', ms: 60_000 },
  { type: 'max_cost', credits: 1000 },
  { type: 'tool_not_called', tool: 'issue_refund' },
  { type: 'refusal' },
  { type: 'similarity', reference: 'Answer: which solar panels fit a small roof', min: 0.3 },
];

/**
 * Questions giving about `calls` model calls: each has one variation (v0: agent + judge; v1:
 * reword + agent + judge), `checks` on each (they add no model call; null: none).
 */
export const questionsFor = (calls, { checks = CHECKS } = {}) => {
  const count = Math.round(calls / 5);
  const make = (prefix, n) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${prefix}-${i}`,
      text: `Question ${prefix} ${i}: which solar panels fit a small roof?`,
      selected: true,
      isEditing: false,
      variations: 1,
      whenToAsk: 1,
      successCriteria: 'Answers helpfully.',
      isSuccessCriteriaEditing: false,
      checks: checks ?? undefined,
    }));
  const custom = make('c', Math.min(500, count));
  const compliance = make('k', Math.min(500, Math.max(0, count - 500)));
  const promptHacking = make('p', Math.min(500, Math.max(0, count - 1000)));
  let extra = count - custom.length - compliance.length - promptHacking.length;
  // Beyond 1500 questions, more variations per question carry the rest.
  const lists = [custom, compliance, promptHacking];
  for (const list of lists) {
    for (const question of list) {
      if (extra <= 0) break;
      const add = Math.min(9, Math.ceil((extra * 5) / 3 / Math.max(1, list.length)));
      question.variations += add;
      extra -= (add * 3) / 5;
    }
  }
  const n = lists.flat().reduce((sum, q) => sum + 2 + 3 * q.variations, 0);
  return { custom, compliance, promptHacking, calls: n, chain: 3 };
};

/** Every conversation a run of these questions stores: `category:questionId#variation`, as the engine keys them. */
export const conversationKeys = (questions) => {
  const keys = [];
  for (const [category, list] of [
    ['custom', questions.custom],
    ['compliance', questions.compliance],
    ['promptHacking', questions.promptHacking],
  ]) {
    for (const question of list)
      for (let variation = 0; variation <= question.variations; variation += 1)
        keys.push(`${category}:${question.id}#${variation}`);
  }
  return keys;
};

/** The body of POST /api/evaluation/run/evaluationdata for a chat-completion run on `model`. */
export const runPayload = ({ evaluationId, name, model, questions, adaptiveAttacks }) => ({
  evaluationId,
  ai1_config: {
    model,
    temperature: 1,
    max_tokens: 256,
    top_p: 1,
    frequency_penalty: 0,
    presence_penalty: 0,
    stop: [],
  },
  initial_message: 'How can I help you with solar today?',
  shortuserDescription: 'User wants help looking at options for solar energy.',
  checkedItems: { 'custom-questions': true, compliance: true, 'prompt-hacking': true },
  settings: {
    evaluationName: name,
    prompt: 'You are a solar assistant.',
    ...(adaptiveAttacks ? { adaptiveAttacks } : {}),
  },
  customQuestions: questions.custom,
  complianceQuestions: questions.compliance,
  promptHackingQuestions: questions.promptHacking,
  testing_model_for_test_generation: model,
});
