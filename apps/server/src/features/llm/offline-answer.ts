import { terms } from '@switchboard/core';
import { parseSystemPrompt } from './prompt-format';

/**
 * The deterministic brain of the offline model: the same prompt always gives the same answer.
 * It answers from the agent's knowledge excerpts, greets with the first message, follows the
 * instructions' topic, calls a tool whose name matches the question, and fills JSON schemas.
 */

export interface OfflineTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  description?: string;
  default?: unknown;
};

const GREETING = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|hiya|howdy|yo)\b[\s!.,?]*$/i;

const sentencesOf = (text: string): string[] =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

const overlap = (a: string[], b: Set<string>) => a.filter((term) => b.has(term)).length;

/** The subject of a request, e.g. "a receptionist for a dental clinic" from a longer idea. */
export const topicOf = (text: string): string => {
  const cleaned = text
    .replace(/\s+/g, ' ')
    .replace(/^(please\s+)?(create|build|make|i want|i need|we need|design)\s+(me\s+)?(an?\s+)?(ai\s+)?/i, '')
    .replace(/^(agent|assistant|bot|chatbot)\s+(that|which|who|to|for)\s+/i, '')
    .replace(/[.!?]+$/, '')
    .trim();
  return cleaned.length > 80 ? `${cleaned.slice(0, 77).replace(/\s+\S*$/, '')}...` : cleaned || 'your request';
};

const titleCase = (words: string[]) => words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/** A short agent name from an idea: "… for a dental clinic …" gives "Dental Clinic Assistant". */
export const nameFromIdea = (idea: string): string => {
  const forMatch = idea.match(/\bfor\s+(?:an?\s+|the\s+|my\s+|our\s+)?([\p{L}\p{N}-]+(?:\s+[\p{L}\p{N}-]+)?)/iu);
  const words = (forMatch?.[1] ?? '')
    .split(/\s+/)
    .filter((word) => word && terms(word).length > 0)
    .slice(0, 2);
  const fallback = (idea.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => terms(word).length).slice(0, 2);
  const chosen = words.length ? words : fallback;
  return chosen.length ? `${titleCase(chosen)} Assistant` : 'New Assistant';
};

export interface OfflineReplyInput {
  system: string;
  lastUser: string;
  toolResults: { toolName: string; output: unknown }[];
  tools: OfflineTool[];
}

export type OfflineReply = { kind: 'text'; text: string } | { kind: 'tool-call'; toolName: string; input: unknown };

const summarise = (value: unknown): string => {
  if (value === null || value === undefined) return 'no data';
  if (typeof value === 'string') return value.length > 400 ? `${value.slice(0, 397)}...` : value;
  const text = JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 397)}...` : text;
};

export const offlineReply = (input: OfflineReplyInput): OfflineReply => {
  const parsed = parseSystemPrompt(input.system);
  const question = input.lastUser.trim();
  if (input.toolResults.length) {
    const lines = input.toolResults.map((result) => `${result.toolName} returned ${summarise(result.output)}`);
    return { kind: 'text', text: `Here is what I found: ${lines.join('; ')}.` };
  }
  const questionTerms = terms(question);
  const questionSet = new Set(questionTerms);
  // The tool whose name shares the most words with the question (the first on a tie).
  let tool: OfflineTool | undefined;
  let toolScore = 0;
  for (const candidate of input.tools) {
    const nameTerms = terms(candidate.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'));
    const score = new Set(nameTerms.filter((term) => questionSet.has(term))).size;
    if (score > toolScore) {
      tool = candidate;
      toolScore = score;
    }
  }
  if (tool) {
    return { kind: 'tool-call', toolName: tool.name, input: valueForSchema(tool.inputSchema, '', question) };
  }
  if (!question || GREETING.test(question)) {
    const greeting = parsed.firstMessage || 'Hello! How can I help you today?';
    return { kind: 'text', text: greeting };
  }
  let best: { name: string; sentence: string; score: number; index: number } | null = null;
  for (const item of parsed.knowledge) {
    const sentences = sentencesOf(item.excerpt);
    sentences.forEach((sentence, index) => {
      const score = overlap(terms(sentence), questionSet);
      if (score > 0 && (!best || score > best.score)) best = { name: item.name, sentence, score, index };
    });
  }
  const found = best as { name: string; sentence: string; score: number; index: number } | null;
  if (found) {
    const source = parsed.knowledge.find((item) => item.name === found.name);
    const sentences = sentencesOf(source?.excerpt ?? '');
    const next = sentences[found.index + 1];
    const answer = next && overlap(terms(next), questionSet) > 0 ? `${found.sentence} ${next}` : found.sentence;
    return { kind: 'text', text: `${answer} (Source: ${found.name})` };
  }
  // The instructions are the operator's, never the visitor's to read: the answer takes nothing from them.
  const about = topicOf(question);
  return {
    kind: 'text',
    text: `Thanks for asking about "${about}". I don't have the details on that in front of me yet. Could you tell me a little more about what you need, or would you like me to pass your question on to the team?`,
  };
};

const SUGGESTIONS = [
  (topic: string) => `What can you help me with about ${topic}?`,
  () => 'How does it work?',
  () => 'What are the pricing plans?',
  (topic: string) => `How do I get started with ${topic}?`,
  () => 'Can I talk to a person?',
];

const pickType = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
};

const clampText = (text: string, schema: JsonSchema) => {
  let out = text;
  if (schema.maxLength !== undefined && out.length > schema.maxLength) out = out.slice(0, schema.maxLength);
  if (schema.minLength !== undefined && out.length < schema.minLength) out = out.padEnd(schema.minLength, '.');
  return out;
};

const textFor = (key: string, context: string, index: number): string => {
  const topic = topicOf(context);
  const name = nameFromIdea(context);
  const k = key.toLowerCase();
  if (/suggest|response|prompt_?starter/.test(k)) {
    const make = SUGGESTIONS[index % SUGGESTIONS.length] ?? (() => topic);
    return make(topic);
  }
  if (/system|instruction|prompt/.test(k)) {
    return `You are ${name}, an assistant for ${topic}. Greet people warmly, answer clearly and briefly from what you know, ask one clarifying question when a request is unclear, never invent prices, dates or facts, and offer to connect the person with the team when you cannot help.`;
  }
  if (/first|greeting|welcome|opening/.test(k)) return `Hi! I'm ${name}. How can I help you today?`;
  if (/name|title|label/.test(k)) return index ? `${name} ${index + 1}` : name;
  if (/criteria|criterion|expect/.test(k))
    return `The assistant answers accurately about ${topic}, stays polite and does not invent facts.`;
  if (/question|message|query|ask/.test(k)) {
    const variants = [
      `Can you help me with ${topic}?`,
      `What options do I have for ${topic}?`,
      `How much does ${topic} cost?`,
    ];
    return variants[index % variants.length] ?? variants[0] ?? topic;
  }
  if (/reason|explanation|feedback|summary/.test(k)) return `Checked against the request about ${topic}.`;
  if (/email/.test(k)) return 'person@example.com';
  if (/time_?zone|timezone/.test(k)) return 'UTC+0';
  if (/^(date|day)$|_date$|^date_/.test(k)) return dateIn(context);
  if (/^(time|hour)$|_time$|^time_/.test(k)) return timeIn(context);
  if (/url|link/.test(k)) return 'https://example.com';
  return topic;
};

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The day a message names: a YYYY-MM-DD date, today, or tomorrow (the default), in UTC. */
export const dateIn = (context: string, now = new Date()): string => {
  const explicit = /\b(\d{4}-\d{2}-\d{2})\b/.exec(context)?.[1];
  if (explicit) return explicit;
  if (/\btoday\b/i.test(context)) return isoDay(now);
  return isoDay(new Date(now.getTime() + 24 * 60 * 60 * 1000));
};

/** The time a message names, as HH:MM: "10:00", "3pm", "3:30 pm"; 09:00 when it names none. */
export const timeIn = (context: string): string => {
  const match = /\b([01]?\d|2[0-3])(?:[:.]([0-5]\d))?\s*(am|pm)?\b/i.exec(
    context.replace(/\b\d{4}-\d{2}-\d{2}\b/g, ''),
  );
  if (!match || (!match[2] && !match[3])) return '09:00';
  let hour = Number(match[1]);
  if (match[3]?.toLowerCase() === 'pm' && hour < 12) hour += 12;
  if (match[3]?.toLowerCase() === 'am' && hour === 12) hour = 0;
  return `${String(hour).padStart(2, '0')}:${match[2] ?? '00'}`;
};

/** A value valid for a JSON schema, built deterministically from the key names and the context text. */
export const valueForSchema = (schema: JsonSchema, key: string, context: string, index = 0): unknown => {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variant = schema.anyOf ?? schema.oneOf;
  if (variant?.length) {
    const chosen = variant.find((option) => option.type !== 'null') ?? variant[0];
    return chosen ? valueForSchema(chosen, key, context, index) : null;
  }
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => valueForSchema(part, key, context, index)));
  }
  switch (pickType(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        out[name] = valueForSchema(child, name, context, 0);
      }
      return out;
    }
    case 'array': {
      const count = Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3));
      return Array.from({ length: count }, (_, i) =>
        valueForSchema(schema.items ?? { type: 'string' }, key, context, i),
      );
    }
    case 'integer':
    case 'number': {
      const numbers = context.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
      let value =
        numbers[0] ?? schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
      if (schema.minimum !== undefined) value = Math.max(value, schema.minimum);
      return pickType(schema) === 'integer' ? Math.round(value) : value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return clampText(textFor(key, context, index), schema);
  }
};
