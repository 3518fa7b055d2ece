import {
  describeCheck,
  REGEX_PATTERN_MAX,
  type TCheckResult,
  type TQuestion,
  type TQuestionCheck,
  terms,
} from '@switchboard/core';
import safeRegex from 'safe-regex2';
import { AppError } from '../../platform/errors';

/**
 * The checks of a question beside the judge: deterministic, cheap, each with its own result.
 * A regex is user input run against model output, so it is guarded three ways: at most
 * REGEX_PATTERN_MAX characters, refused when safe-regex2 finds star height above one (nested
 * quantifiers, the usual catastrophic backtracking), and run on at most ANSWER_MAX characters.
 */

export const ANSWER_MAX = 20_000;

/** What a conversation measured for its checks. */
export interface CheckInput {
  answer: string;
  /** Time the agent took to answer the question. */
  latencyMs: number;
  /** Credits of the agent's calls in the conversation. */
  credits: number;
  /** Tools the agent called from the question on. */
  toolCalls: { name: string; input: unknown }[];
}

/** Compiled check patterns (and refusals) by pattern and flag: a run asks the same few on every conversation. */
const compiled = new Map<string, RegExp | string>();
const COMPILED_MAX = 500;

const compile = (pattern: string, ignoreCase: boolean): RegExp | string => {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  const found = compiled.get(key);
  if (found !== undefined) return found;
  const problem = analyse(pattern, ignoreCase);
  const value = problem ?? new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(key, value);
  return value;
};

/** Why a regex is refused, or null when it may run. */
export const regexProblem = (pattern: string, ignoreCase = false): string | null => {
  const value = compile(pattern, ignoreCase);
  return typeof value === 'string' ? value : null;
};

const analyse = (pattern: string, ignoreCase: boolean): string | null => {
  if (pattern.length > REGEX_PATTERN_MAX) return `A regex can be at most ${REGEX_PATTERN_MAX} characters`;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  } catch {
    return 'The regex is not valid';
  }
  // Backreferences defeat the analysis and can backtrack exponentially on their own.
  if (/\\[1-9]|\\k</.test(pattern)) return 'Backreferences are not allowed in a check regex';
  if (!safeRegex(regex, { limit: 25 })) return 'The regex could backtrack catastrophically (nested quantifiers)';
  return null;
};

/** Validates the checks of every question list of a payload; 422 with the question's field on a bad regex. */
export const validateQuestionChecks = (lists: Record<string, TQuestion[]>) => {
  for (const [listName, list] of Object.entries(lists)) {
    list.forEach((question, index) => {
      question.checks?.forEach((check, checkIndex) => {
        if (check.type !== 'regex') return;
        const problem = regexProblem(check.pattern, check.ignoreCase);
        if (problem) {
          throw new AppError('VALIDATION_ERROR', problem, {
            field: `${listName}.${index}.checks.${checkIndex}.pattern`,
          });
        }
      });
    });
  }
};

const REFUSAL =
  /\b(I can(?:no|')t|I cannot|I(?:'m| am) (?:not able|unable)|I won'?t|I will not|I must decline|I(?:'m| am) sorry,? but|not (?:able|allowed|permitted) to|can(?:no|')t (?:help|assist|share|provide|do) (?:with )?that|unable to (?:help|assist|share|provide))\b/i;

/** The first JSON object or array in a text (an answer may wrap it in words or a code fence). */
const jsonIn = (text: string): unknown => {
  const trimmed = text.trim();
  const candidates = [trimmed, /```(?:json)?\s*([\s\S]*?)```/.exec(trimmed)?.[1] ?? ''];
  const start = trimmed.search(/[[{]/);
  if (start >= 0)
    candidates.push(trimmed.slice(start, Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']')) + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // the next candidate
    }
  }
  return undefined;
};

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Whether `input` holds every key of `expected` with an equal value (strings compared case-insensitively). */
const argsMatch = (input: unknown, expected: Record<string, unknown>) => {
  if (!input || typeof input !== 'object') return Object.keys(expected).length === 0;
  const given = input as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => {
    const actual = given[key];
    if (typeof value === 'string' && typeof actual === 'string') return actual.toLowerCase() === value.toLowerCase();
    return JSON.stringify(actual) === JSON.stringify(value);
  });
};

/** Cosine similarity of the term counts of two texts, 0-1. */
export const similarity = (a: string, b: string): number => {
  const count = (text: string) => {
    const map = new Map<string, number>();
    for (const term of terms(text)) map.set(term, (map.get(term) ?? 0) + 1);
    return map;
  };
  const x = count(a);
  const y = count(b);
  let dot = 0;
  for (const [term, n] of x) dot += n * (y.get(term) ?? 0);
  const norm = (map: Map<string, number>) => Math.sqrt([...map.values()].reduce((sum, n) => sum + n * n, 0));
  const denominator = norm(x) * norm(y);
  return denominator ? dot / denominator : 0;
};

const result = (check: TQuestionCheck, passed: boolean, detail: string): TCheckResult => ({
  type: check.type,
  label: describeCheck(check),
  passed,
  detail,
});

export const runCheck = (check: TQuestionCheck, input: CheckInput): TCheckResult => {
  const answer = input.answer.slice(0, ANSWER_MAX);
  switch (check.type) {
    case 'contains': {
      const found = answer.toLowerCase().includes(check.value.toLowerCase());
      return result(check, found, found ? 'Found in the answer.' : 'Not found in the answer.');
    }
    case 'not_contains': {
      const found = answer.toLowerCase().includes(check.value.toLowerCase());
      return result(check, !found, found ? 'Found in the answer.' : 'Not in the answer.');
    }
    case 'regex': {
      const regex = compile(check.pattern, check.ignoreCase);
      if (typeof regex === 'string') return result(check, false, regex);
      const match = regex.exec(answer);
      return result(check, Boolean(match), match ? `Matched "${match[0].slice(0, 80)}".` : 'No match in the answer.');
    }
    case 'json_shape': {
      const value = jsonIn(answer);
      if (value === undefined) return result(check, false, 'The answer holds no JSON.');
      if (typeOf(value) !== 'object')
        return result(check, false, `The answer's JSON is ${typeOf(value)}, not an object.`);
      const object = value as Record<string, unknown>;
      const wrong = Object.entries(check.shape).filter(
        ([key, type]) => !(key in object) || (type !== 'any' && typeOf(object[key]) !== type),
      );
      return result(
        check,
        wrong.length === 0,
        wrong.length
          ? `Missing or of another type: ${wrong.map(([key, type]) => `${key} (${type})`).join(', ')}.`
          : 'Every key is there with its type.',
      );
    }
    case 'max_latency':
      return result(check, input.latencyMs <= check.ms, `Answered in ${Math.round(input.latencyMs)} ms.`);
    case 'max_cost': {
      const credits = Math.round(input.credits * 10_000) / 10_000;
      return result(check, input.credits <= check.credits, `Cost ${credits} credits.`);
    }
    case 'tool_called':
    case 'tool_not_called': {
      const calls = input.toolCalls.filter((call) => call.name === check.tool);
      const matching = check.args ? calls.filter((call) => argsMatch(call.input, check.args ?? {})) : calls;
      const called = matching.length > 0;
      const detail = calls.length
        ? `${check.tool} was called ${calls.length} time(s)${check.args ? `, ${matching.length} with the given arguments` : ''}.`
        : `${check.tool} was not called.`;
      return result(check, check.type === 'tool_called' ? called : !called, detail);
    }
    case 'refusal': {
      const match = REFUSAL.exec(answer);
      return result(check, Boolean(match), match ? `Refused: "${match[0]}".` : 'The answer does not refuse.');
    }
    case 'similarity': {
      const score = similarity(answer, check.reference);
      return result(check, score >= check.min, `Similarity ${Math.round(score * 100)}%.`);
    }
  }
};

export const runChecks = (checks: TQuestionCheck[] | undefined, input: CheckInput): TCheckResult[] =>
  (checks ?? []).map((check) => runCheck(check, input));
