import { applyMentorChange } from './apply';
import type { TMentorDraft, TMentorDraftSuggestion, TMentorReviewContext } from './schemas';

/**
 * The offline reviewer: a deterministic reading of an agent by fixed rules, used when the offline
 * model reviews (no provider key configured, or the offline model chosen). It checks what a
 * reviewer checks first: a first message, suggested questions, instructions that set a tone, say
 * what to do when the answer is unknown and when to hand over to a person, use of the agent's
 * documents, failed evaluation questions with and without knowledge coverage, and recent
 * conversations where the agent said it did not know. Every pattern is linear (no backtracking).
 */

const TONE =
  /\b(?:tone|helpful|friendly|warm|polite|professional|formal|informal|casual|concise|empathetic|cheerful|courteous)\b/i;
const ESCALATION =
  /\b(?:human|person|people on the team|staff|team member|colleague|escalat\w*|hand (?:it |the conversation |this )?(?:over|off)|transfer|contact (?:us|the team|support))\b/i;
const FALLBACK =
  /(?:don['\u2019]t know|do not know|not sure|unsure|never (?:invent|make up|guess)|(?:don['\u2019]t|do not) (?:invent|make up|guess)|made[- ]up|can(?:no|['\u2019])t find|cannot find|not in your (?:documents|instructions|knowledge))/i;
const KNOWLEDGE = /\b(?:documents?|knowledge|sources?|handbook|files?|faq)\b/i;
/** An agent reply that admits it has no answer. */
const DONT_KNOW =
  /(?:I (?:don['\u2019]t|do not) (?:know|have (?:that|this|any|the) (?:information|details))|I['\u2019]m not sure|I am not sure|I (?:can['\u2019]t|cannot|could not|couldn['\u2019]t) find|I (?:don['\u2019]t|do not) have information|no information (?:about|on))/i;

export const OFFLINE_RULES = {
  tone: "Tone: be friendly, clear and concise, and answer in the visitor's language.",
  fallback:
    'If the answer is not in your instructions or documents, say so honestly; never invent facts, prices or policies.',
  escalation:
    'When a visitor asks for a person, is unhappy, or needs something you cannot do, offer to hand the conversation to a member of the team and ask for their name and contact details.',
} as const;

const GENERIC_QUESTIONS = ['What can you help me with?', 'How can I reach a person?', 'What are your opening hours?'];

const oneLine = (value: string, max = 150) => {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
};

const quoteList = (items: string[]) => items.map((item) => `"${oneLine(item, 120)}"`).join('; ');

/** Where rules are added: the shortest ending of the instructions that occurs in them once. */
const anchorOf = (prompt: string): string => {
  const lines = prompt.replace(/\s+$/, '').split('\n');
  for (let take = 1; take <= lines.length; take += 1) {
    const tail = lines.slice(-take).join('\n');
    if (tail.trim() && applyMentorChange(prompt, tail, tail) !== null) return tail;
  }
  return prompt;
};

const documentTopic = (name: string) =>
  name
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();

/** The questions a visitor asked right before the agent said it did not know. */
const unansweredQuestions = (context: TMentorReviewContext) => {
  const found: string[] = [];
  let admissions = 0;
  context.conversation.forEach((message, index) => {
    if (message.role !== 'assistant' || !DONT_KNOW.test(message.content)) return;
    admissions += 1;
    for (let back = index - 1; back >= 0; back -= 1) {
      const previous = context.conversation[back];
      if (!previous || previous.threadId !== message.threadId) break;
      if (previous.role === 'user') {
        const question = oneLine(previous.content);
        if (question && !found.some((known) => known.toLowerCase() === question.toLowerCase())) found.push(question);
        break;
      }
    }
  });
  return { questions: found, admissions };
};

const percent = (rate: number | null) => (rate === null ? 'no graded results' : `pass rate ${Math.round(rate * 100)}%`);

const instructionRules = (context: TMentorReviewContext): TMentorDraftSuggestion[] => {
  const prompt = context.agent.systemPrompt;
  const documents = context.documents;
  const knowledgeRule = documents.length
    ? `Base your answers on your documents (${documents.slice(0, 5).join(', ')}); when they do not answer a question, say so.`
    : null;
  if (!prompt.trim()) {
    const intro = `You are ${context.agent.name || 'the assistant'}, the assistant of this business. Help visitors with their questions clearly and accurately.`;
    const after = [intro, knowledgeRule, OFFLINE_RULES.tone, OFFLINE_RULES.fallback, OFFLINE_RULES.escalation]
      .filter(Boolean)
      .join('\n');
    return [
      {
        title: 'Write the agent’s instructions',
        why: 'The agent has no instructions, so it answers with no role, tone or limits. These set who it serves, how it speaks, what it does when it does not know, and when it hands over to a person.',
        field: 'systemPrompt',
        before: '',
        after,
      },
    ];
  }
  const anchor = anchorOf(prompt);
  const gap = prompt.includes('\n\n') ? '\n\n' : '\n';
  const add = (title: string, why: string, rule: string): TMentorDraftSuggestion => ({
    title,
    why,
    field: 'systemPrompt',
    before: anchor,
    after: `${anchor}${gap}${rule}`,
  });
  const found: TMentorDraftSuggestion[] = [];
  if (!FALLBACK.test(prompt)) {
    found.push(
      add(
        'Say what to do when the answer is unknown',
        'The instructions never say what to do when the agent does not know. Without that rule a model tends to guess, and a wrong price or policy costs more than an honest "I don’t know".',
        OFFLINE_RULES.fallback,
      ),
    );
  }
  if (!ESCALATION.test(prompt)) {
    found.push(
      add(
        'Add a hand-over rule',
        'Nothing in the instructions says when to bring in a person. Visitors who are upset or need something the agent cannot do should be offered a human and asked how to reach them.',
        OFFLINE_RULES.escalation,
      ),
    );
  }
  if (!TONE.test(prompt)) {
    found.push(
      add(
        'Set the tone of voice',
        'The instructions do not set a tone, so replies can swing between stiff and chatty. One line keeps every answer consistent with the brand.',
        OFFLINE_RULES.tone,
      ),
    );
  }
  if (knowledgeRule && !KNOWLEDGE.test(prompt)) {
    found.push(
      add(
        'Point the agent to its documents',
        `The agent has ${documents.length} knowledge document${documents.length === 1 ? '' : 's'} but its instructions never mention them, so it may answer from general knowledge instead.`,
        knowledgeRule,
      ),
    );
  }
  return found;
};

const evaluationRules = (context: TMentorReviewContext): TMentorDraftSuggestion[] => {
  const evaluation = context.evaluation;
  const prompt = context.agent.systemPrompt;
  if (!evaluation?.failed.length || !prompt.trim()) return [];
  const anchor = anchorOf(prompt);
  const gap = prompt.includes('\n\n') ? '\n\n' : '\n';
  const uncovered = evaluation.failed.filter((result) => !result.knowledgeMatch).map((result) => result.question);
  const covered = evaluation.failed.filter((result) => result.knowledgeMatch);
  const found: TMentorDraftSuggestion[] = [];
  if (uncovered.length) {
    const sample = [...new Set(uncovered.map((question) => oneLine(question)))].slice(0, 3);
    found.push({
      title: 'Cover the questions the last evaluation failed',
      why: `${uncovered.length} of the ${evaluation.failedCount} failed questions of the evaluation "${oneLine(evaluation.name, 80)}" (${percent(evaluation.passRate)}) have no match in the agent’s documents, for example "${sample[0]}". Add a document that answers them; until then this rule stops the agent from guessing.`,
      field: 'systemPrompt',
      before: anchor,
      after: `${anchor}${gap}You have no verified information yet about: ${quoteList(sample)}. If a visitor asks about these, say you will check with the team instead of guessing.`,
    });
  }
  if (covered.length) {
    const sample = covered.slice(0, 3);
    const first = sample[0];
    found.push({
      title: 'Use the documents that answer failed questions',
      why: `The evaluation "${oneLine(evaluation.name, 80)}" failed ${covered.length} question${covered.length === 1 ? '' : 's'} that the agent’s documents do answer (for example "${oneLine(first?.question ?? '')}" is covered by ${first?.knowledgeMatch}): the agent is not using what it knows.`,
      field: 'systemPrompt',
      before: anchor,
      after: `${anchor}${gap}Answer these questions from your documents and quote the relevant detail: ${sample
        .map((result) => `"${oneLine(result.question, 120)}" (${result.knowledgeMatch})`)
        .join('; ')}.`,
    });
  }
  return found;
};

const conversationRule = (context: TMentorReviewContext): TMentorDraftSuggestion[] => {
  const prompt = context.agent.systemPrompt;
  const { questions, admissions } = unansweredQuestions(context);
  if (!admissions || !questions.length || !prompt.trim()) return [];
  const anchor = anchorOf(prompt);
  const gap = prompt.includes('\n\n') ? '\n\n' : '\n';
  const sample = questions.slice(0, 3);
  return [
    {
      title: 'Handle the questions visitors could not get answered',
      why: `In recent conversations the agent said ${admissions} time${admissions === 1 ? '' : 's'} that it did not know, for example after "${sample[0]}". Add the answers to its documents or instructions; meanwhile this rule turns a dead end into a follow-up.`,
      field: 'systemPrompt',
      before: anchor,
      after: `${anchor}${gap}Visitors have asked about things you could not answer: ${quoteList(sample)}. If asked again, apologise, say you will pass the question to the team and ask for the visitor’s contact details.`,
    },
  ];
};

const firstMessageRule = (context: TMentorReviewContext): TMentorDraftSuggestion[] => {
  if (context.agent.firstMessage.trim()) return [];
  const name = oneLine(context.agent.name, 80);
  return [
    {
      title: 'Add a first message',
      why: 'The agent opens with nothing, so a visitor faces an empty chat and has to guess what to ask. A short greeting that says what the agent can do gets more conversations started.',
      field: 'firstMessage',
      before: context.agent.firstMessage,
      after: name ? `Hi! I'm ${name}. How can I help you today?` : 'Hi! How can I help you today?',
    },
  ];
};

const suggestedQuestionsRule = (context: TMentorReviewContext): TMentorDraftSuggestion[] => {
  const existing = context.agent.suggestedResponses;
  if (existing.length >= 3) return [];
  const seen = new Set(existing.map((text) => text.trim().toLowerCase()));
  const candidates = [
    ...(context.evaluation?.failed.map((result) => result.question) ?? []),
    ...context.conversation.filter((message) => message.role === 'user').map((message) => message.content),
  ]
    .map((text) => oneLine(text, 200))
    .filter((text) => text.endsWith('?') && text.length <= 120);
  const fromDocuments = context.documents.map((name) => `What can you tell me about ${documentTopic(name)}?`);
  const added: string[] = [];
  for (const candidate of [...candidates, ...fromDocuments, ...GENERIC_QUESTIONS]) {
    if (existing.length + added.length >= 3) break;
    const key = candidate.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    added.push(candidate);
  }
  if (!added.length) return [];
  return [
    {
      title: existing.length ? 'Offer more suggested questions' : 'Add suggested questions',
      why: existing.length
        ? `The agent offers ${existing.length} suggested question${existing.length === 1 ? '' : 's'}; three give visitors a better start. These come from what visitors and tests actually ask.`
        : 'Visitors see no suggested questions to click. Three short ones show what the agent can do and start conversations; these come from what visitors and tests actually ask.',
      field: 'suggestedResponses',
      before: existing.join('\n'),
      after: [...existing, ...added].join('\n'),
    },
  ];
};

/** The offline review of an agent: the same context always gives the same suggestions. */
export const offlineReview = (context: TMentorReviewContext): TMentorDraft => {
  const suggestions = [
    ...firstMessageRule(context),
    ...suggestedQuestionsRule(context),
    ...instructionRules(context),
    ...evaluationRules(context),
    ...conversationRule(context),
  ];
  const read = [
    'instructions',
    'first message',
    'suggested questions',
    `${context.documents.length} document${context.documents.length === 1 ? '' : 's'}`,
    `${context.conversation.length} recent message${context.conversation.length === 1 ? '' : 's'}`,
    context.evaluation ? `the evaluation "${oneLine(context.evaluation.name, 80)}"` : 'no evaluation yet',
  ].join(', ');
  const summary = suggestions.length
    ? `Checked ${read}. Found ${suggestions.length} improvement${suggestions.length === 1 ? '' : 's'} by fixed rules.`
    : `Checked ${read}. The fixed rules found nothing to improve; a review with your own model can look deeper.`;
  return { summary, suggestions };
};
