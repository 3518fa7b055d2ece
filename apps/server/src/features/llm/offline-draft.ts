import type { TAgentDraft } from '@switchboard/core';

/**
 * The offline builder's draft: an idea sentence ("A friendly front-desk assistant for Bright Smile
 * Dental in Leeds that answers questions about treatments and books check-ups") read into its parts
 * (role, business, place, tasks, tone) and written up as a receptionist would: a name, second-person
 * instructions, a greeting and three things a visitor would ask. The idea is never pasted back.
 * Every pattern here is linear (no nested quantifiers), so a hostile idea cannot make it backtrack.
 */

export interface IdeaParts {
  role: string;
  business: string;
  /** The business is a proper name ("Bright Smile Dental"), not a description ("a dental clinic"). */
  named: boolean;
  place: string;
  tasks: string[];
  tone: string[];
}

const ROLE_NOUNS =
  /\b(receptionist|assistant|agent|bot|chatbot|concierge|helper|advisor|adviser|helpdesk|rep|representative|coordinator|host|guide|specialist)\b/i;
const TONES = new Set([
  'friendly',
  'professional',
  'warm',
  'helpful',
  'polite',
  'cheerful',
  'patient',
  'calm',
  'upbeat',
  'concise',
  'knowledgeable',
  'empathetic',
]);
const ARTICLE = /^(?:a|an|the|my|our|your)\s+/i;
const LEAD = /^(?:please\s+)?(?:create|build|make|design|set up|i want|i need|we need|we want)\s+(?:me\s+|us\s+)?/i;
const AI_WORD = /^(?:an?\s+)?(?:ai|ai-powered|virtual|online|digital|smart)\s+/i;
const TASK_START = /\s+(?:that|which|who|to help(?: people| customers| visitors)?(?: to)?|to)\s+/i;

const clean = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'\u201C\u201D]+|[\s"'\u201C\u201D.!?]+$/g, '')
    .trim();

const titleCase = (text: string) =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => (word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word))
    .join(' ');

const isCapitalised = (word: string) => /^[\p{Lu}\p{N}]/u.test(word);

/** "answers" → "answer", "qualifies" → "qualify", "handles" → "handle" (third person to base form). */
export const baseVerb = (verb: string): string => {
  const lower = verb.toLowerCase();
  if (['is', 'has', 'does', 'goes'].includes(lower))
    return { is: 'be', has: 'have', does: 'do', goes: 'go' }[lower] ?? lower;
  if (lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  if (/(?:ches|shes|sses|xes|zes)$/.test(lower)) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1);
  return lower;
};

const VERBS = new Set([
  'answer',
  'book',
  'schedule',
  'arrange',
  'reserve',
  'take',
  'handle',
  'help',
  'explain',
  'describe',
  'share',
  'give',
  'provide',
  'check',
  'track',
  'find',
  'recommend',
  'qualify',
  'capture',
  'collect',
  'quote',
  'process',
  'manage',
  'support',
  'guide',
  'welcome',
  'greet',
  'sell',
  'offer',
  'cover',
  'resolve',
  'route',
  'triage',
  'update',
  'confirm',
  'cancel',
  'reschedule',
  'suggest',
  'assist',
  'onboard',
  'deal',
]);

const isVerb = (word: string) => VERBS.has(baseVerb(word));

/**
 * "answers questions about treatments, books check-ups and handles emergencies" gives three tasks;
 * "handles orders, returns and sizing" one verb with three objects; a list after a colon
 * ("quotes, emergency call-outs and opening hours") is topics the agent helps with.
 */
const splitTasks = (text: string, topics: boolean): string[] => {
  const parts = text
    .split(/\s*(?:,|;|\band\b|\bor\b|\bplus\b|&)\s*/i)
    .map(clean)
    .filter((part) => part.length > 1);
  if (topics) return parts.slice(0, 5).map((part) => `help with ${part.toLowerCase()}`);
  const tasks: string[] = [];
  for (const part of parts) {
    const [first = ''] = part.split(' ');
    if (tasks.length === 0 || (part.includes(' ') && isVerb(first))) {
      const [verb = '', ...rest] = part.split(' ');
      tasks.push([baseVerb(verb), ...rest].join(' '));
      continue;
    }
    // An object of the previous verb: "returns" after "handles orders".
    const previous = tasks[tasks.length - 1] ?? '';
    const about = previous.match(/^(.*?\b(?:about|with|for|on))\s+/i)?.[1];
    const verb = previous.split(' ')[0] ?? 'help with';
    tasks.push(about ? `${about} ${part}` : `${verb} ${part}`);
  }
  return tasks.slice(0, 5);
};

/** Reads an idea sentence into its parts. */
export const parseIdea = (idea: string): IdeaParts => {
  let text = clean(idea.slice(0, 2000)).replace(LEAD, '');
  let tasksText = '';
  let topics = false;
  const colon = text.indexOf(':');
  if (colon > 0) {
    tasksText = text.slice(colon + 1);
    text = text.slice(0, colon);
    topics = true;
  }
  const taskMatch = TASK_START.exec(text);
  if (taskMatch && !tasksText) {
    tasksText = text.slice(taskMatch.index + taskMatch[0].length);
    text = text.slice(0, taskMatch.index);
  }
  let rolePart = '';
  let businessPart = text;
  const forMatch = /\s+(?:for|at|of)\s+/i.exec(text);
  if (forMatch && ROLE_NOUNS.test(text.slice(0, forMatch.index))) {
    rolePart = text.slice(0, forMatch.index);
    businessPart = text.slice(forMatch.index + forMatch[0].length);
  } else if (ROLE_NOUNS.test(text) && !forMatch) {
    rolePart = text;
    businessPart = '';
  }
  const tone: string[] = [];
  const roleWords = rolePart
    .replace(ARTICLE, '')
    .replace(AI_WORD, '')
    .split(/\s+/)
    .filter((word) => {
      const lower = word.toLowerCase().replace(/,$/, '');
      if (TONES.has(lower)) {
        tone.push(lower);
        return false;
      }
      return word && !['and', 'ai'].includes(lower);
    });
  const role = roleWords.join(' ').toLowerCase() || 'assistant';

  let place = '';
  const inMatch = /\s+(?:in|near|based in|located in)\s+([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*){0,3})/u.exec(
    businessPart,
  );
  if (inMatch) {
    place = inMatch[1] ?? '';
    businessPart = businessPart.slice(0, inMatch.index);
  } else {
    const commaPlace = /,\s*([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*){0,2})$/u.exec(businessPart);
    if (commaPlace) {
      place = commaPlace[1] ?? '';
      businessPart = businessPart.slice(0, commaPlace.index);
    }
  }
  businessPart = clean(businessPart.replace(/,.*$/, ''));
  const businessWords = businessPart.replace(ARTICLE, '').split(/\s+/).filter(Boolean);
  const named =
    businessWords.length > 0 && businessWords.every((word) => isCapitalised(word) || /^(?:&|of|and|the)$/i.test(word));
  const business = named ? businessWords.join(' ') : businessWords.join(' ').toLowerCase();
  return { role, business, named, place, tasks: tasksText ? splitTasks(tasksText, topics) : [], tone };
};

const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const singular = (word: string) =>
  /ies$/i.test(word)
    ? word.replace(/ies$/i, 'y')
    : /(?:ches|shes|sses|xes)$/i.test(word)
      ? word.slice(0, -2)
      : word.replace(/s$/i, '');
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
const MINE =
  /^(?:order|return|booking|appointment|account|delivery|reservation|refund|subscription|invoice|parcel|claim)/i;

const PEOPLE =
  /^(?:homeowners?|customers?|clients?|leads?|visitors?|patients?|people|users?|prospects?|guests?|members?|buyers?|callers?)\b/i;

/** A question a visitor would click, from one task ("book check-ups" → "Can I book a check-up?"). */
const questionForTask = (task: string): string | null => {
  const words = task.split(' ');
  const helpWith = task.match(/^help with\s+(.+)$/i)?.[1];
  const verb = helpWith ? 'help' : (words[0] ?? '');
  const object = (helpWith ?? words.slice(1).join(' ')).replace(/^(?:new|existing|all|any|their|your|the)\s+/i, '');
  if (!object || PEOPLE.test(object)) return null;
  const about = object.match(/^(?:questions?|queries|enquiries|inquiries)\s+(?:about|on|regarding)\s+(.+)$/i)?.[1];
  if (about) return `Can you tell me about your ${about}?`;
  if (/quote|price|pricing|cost/i.test(object)) return 'Can I get a quote?';
  if (/opening hours|hours/i.test(object)) return 'What are your opening hours?';
  const thing = object.split(' ').length <= 3 ? object.split(' ').map(singular).join(' ') : object;
  const last = thing.split(' ').at(-1) ?? thing;
  switch (verb) {
    case 'book':
    case 'schedule':
    case 'arrange':
    case 'reserve':
      return `Can I book ${withArticle(thing)}?`;
    case 'take':
      if (/^order$/i.test(last)) {
        const what = thing.split(' ').slice(0, -1).join(' ');
        return what ? `Can I order ${withArticle(what)}?` : 'Can I place an order?';
      }
      return `Can I book ${withArticle(thing)}?`;
    case 'explain':
    case 'describe':
    case 'share':
    case 'give':
    case 'provide':
    case 'recommend':
      return `Can you tell me about ${object}?`;
    default:
      if (MINE.test(thing)) return `Can you help me with my ${thing}?`;
      return /ing$/i.test(thing) ? `Can you help me with ${thing}?` : `Can you help me with ${withArticle(thing)}?`;
  }
};

const withPlace = (parts: IdeaParts) => (parts.place ? ` in ${parts.place}` : '');

const businessRef = (parts: IdeaParts) =>
  parts.named ? parts.business : parts.business ? `the ${parts.business}` : 'the business';

const roleTitle = (role: string) => {
  const noun = role.match(ROLE_NOUNS)?.[1]?.toLowerCase() ?? 'assistant';
  return noun === 'receptionist' || noun === 'concierge' ? titleCase(noun) : 'Assistant';
};

/** "handle orders", "handle returns" → "handle orders and returns"; "help with quotes", "help with call-outs" likewise. */
const mergeTasks = (tasks: string[]): string => {
  const groups: { verb: string; objects: string[] }[] = [];
  for (const task of tasks) {
    const verb = task.startsWith('help with ') ? 'help with' : (task.split(' ')[0] ?? '');
    const object = task.slice(verb.length).trim();
    const last = groups[groups.length - 1];
    if (last && last.verb === verb && object) last.objects.push(object);
    else groups.push({ verb, objects: object ? [object] : [] });
  }
  return listOf(groups.map((group) => [group.verb, listOf(group.objects)].filter(Boolean).join(' ')));
};

/** Tasks a visitor can be offered in the greeting ("I can book check-ups"), not internal ones. */
const VISITOR_FACING =
  /^(?:answer|book|schedule|arrange|reserve|take|handle|help|explain|describe|share|give|provide|check|track|find|recommend|quote|offer|cover|resolve|confirm|cancel|reschedule|suggest|assist)\b/i;

/** The draft the offline builder writes from an idea. */
export const offlineDraft = (idea: string): TAgentDraft => {
  const parts = parseIdea(idea);
  const businessTitle = parts.business
    ? parts.named
      ? parts.business
      : titleCase(parts.business.split(' ').slice(-3).join(' '))
    : '';
  const name = (businessTitle ? `${businessTitle} ${roleTitle(parts.role)}` : `Website ${roleTitle(parts.role)}`).slice(
    0,
    120,
  );
  const tasks = parts.tasks;
  const toneLine = parts.tone.length ? `Be ${listOf(parts.tone)}: ` : 'Be warm and professional: ';
  const role = parts.role === 'bot' || parts.role === 'chatbot' ? 'assistant' : parts.role;
  const where = parts.business ? `${businessRef(parts)}${withPlace(parts)}` : `this website${withPlace(parts)}`;

  const systemPrompt = [
    `You are the ${role} of ${where}. You chat with visitors on the website: you ${tasks.length ? mergeTasks(tasks) : "answer visitors' questions and help them find what they need"}.`,
    '',
    `- ${toneLine}greet people, keep answers short and clear, and write the way a good receptionist talks.`,
    '- Answer from what you know about the business and its documents. If something is not there, say you will check with the team rather than guess.',
    '- Never invent prices, dates, availability or policies, and never give medical, legal or financial advice.',
    '- When a request is unclear, ask one short question before answering.',
    '- When someone wants to book, order or speak to a person, ask for their name and the best way to reach them, and tell them the team will get back to them.',
  ].join('\n');

  const welcome = parts.named
    ? `Hello, and welcome to ${parts.business}!`
    : `Hello, and welcome! I'm the ${role} here.`;
  const offers = tasks.filter((task) => VISITOR_FACING.test(task)).slice(0, 2);
  const firstMessage = `${welcome}${offers.length ? ` I can ${mergeTasks(offers)}.` : ''} How can I help you today?`;

  const suggestions: string[] = [];
  for (const task of tasks) {
    const question = questionForTask(task);
    if (question && !suggestions.includes(question)) suggestions.push(question);
    if (suggestions.length === 3) break;
  }
  const online = /\b(?:online|web|e-?commerce|digital|saas|app)\b/i.test(parts.business);
  const fallbacks = [
    parts.place ? `Where in ${parts.place} are you?` : null,
    online ? null : 'What are your opening hours?',
    'How much does it cost?',
    'Can I speak to someone from the team?',
    online ? 'How do I get started?' : null,
    'What can you help me with?',
  ];
  for (const fallback of fallbacks) {
    if (suggestions.length === 3) break;
    if (fallback && !suggestions.includes(fallback)) suggestions.push(fallback);
  }
  return {
    name,
    systemPrompt,
    firstMessage: firstMessage.slice(0, 2000),
    suggestedResponses: suggestions.map((question) => question.slice(0, 200)),
  };
};
