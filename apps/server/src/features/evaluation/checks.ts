import {
  describeWeightedCheck,
  REGEX_PATTERN_MAX,
  type TCheckResult,
  type TQuestion,
  type TQuestionCheck,
  terms,
} from '@switchboard/core';
import safeRegex from 'safe-regex2';
import { AppError } from '../../platform/errors';
import {
  type ClaimGrader,
  LEXICAL_LABEL,
  lexicalGrades,
  type RetrievedSource,
  retrievalRecall,
  type TClaimGrades,
} from './grounding';
import { compileCheckSchema, schemaProblem } from './json-schema-check';
import { type CheckEmbedder, semanticSimilarity } from './semantic-check';

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
  /** The question the answer answers (grounding checks). */
  question?: string;
  /** The knowledge excerpts the agent retrieved for the answer. */
  sources?: RetrievedSource[];
}

/** The lexical fallback's label when the judge model answered nothing readable. */
export const JUDGE_UNREADABLE_LABEL = "lexical check: the judge model's claim grades could not be read";

/** A grounding check's result from claim grades (judge or lexical). */
const groundedResult = (
  check: TQuestionCheck & { type: 'faithfulness' | 'answers_from_knowledge' },
  grades: TClaimGrades,
  sourceCount: number,
  method: 'judge' | 'lexical',
): TCheckResult => {
  const unsupported = grades.claims.filter((claim) => !claim.supported).map((claim) => claim.claim);
  const how = method === 'judge' ? 'judge model' : LEXICAL_LABEL;
  const base = { method, unsupported };
  if (check.type === 'answers_from_knowledge' && (!sourceCount || !grades.relevant)) {
    const passed = grades.declined && unsupported.length === 0;
    return {
      ...result(
        check,
        passed,
        `${sourceCount ? 'Nothing relevant was retrieved' : 'Nothing was retrieved'}; the answer ${
          grades.declined ? 'declines' : 'does not decline'
        }${unsupported.length ? ` and makes ${unsupported.length} claim(s) outside the knowledge` : ''} (${how}).`,
      ),
      ...base,
    };
  }
  const total = grades.claims.length;
  return {
    ...result(
      check,
      unsupported.length === 0,
      unsupported.length
        ? `${unsupported.length} of ${total} claim(s) not supported by the ${sourceCount} retrieved excerpt(s) (${how}).`
        : `${total} claim(s), all supported by the ${sourceCount} retrieved excerpt(s) (${how}).`,
    ),
    ...base,
  };
};

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
        const problem =
          check.type === 'regex'
            ? regexProblem(check.pattern, check.ignoreCase)
            : check.type === 'json_schema'
              ? schemaProblem(check.schema)
              : null;
        if (problem) {
          throw new AppError('VALIDATION_ERROR', problem, {
            field: `${listName}.${index}.checks.${checkIndex}.${check.type === 'regex' ? 'pattern' : 'schema'}`,
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
  label: describeWeightedCheck(check),
  passed,
  detail,
  ...(check.weight === undefined ? {} : { weight: check.weight }),
});

/** The answer as JSON: the whole answer, or the whole of one code fence; undefined when it does not parse. */
const answerJson = (answer: string): unknown => {
  const trimmed = answer.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)```$/.exec(trimmed)?.[1];
  for (const candidate of [trimmed, fenced]) {
    if (candidate === undefined) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // the next candidate
    }
  }
  return undefined;
};

const similarityResult = (
  check: TQuestionCheck & { min: number },
  score: number,
  how: string,
  method: TCheckResult['method'],
) => ({
  ...result(check, score >= check.min, `Similarity ${Math.round(score * 100)}% (${how}).`),
  method,
});

/** The term-vector fallback of semantic similarity, labelled as such. */
export const TERM_VECTOR_LABEL = 'term-vector similarity, offline fallback: no embedding model configured';

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
      const wanted = toolKey(check.tool);
      const calls = input.toolCalls.filter((call) => toolKey(call.name) === wanted);
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
    case 'json_schema': {
      const compiled = compileCheckSchema(check.schema);
      if ('error' in compiled) return result(check, false, `The schema cannot be used: ${compiled.error}`);
      const value = answerJson(answer);
      if (value === undefined) return result(check, false, 'The answer is not JSON.');
      if (compiled.validate(value)) return result(check, true, 'The answer is JSON valid against the schema.');
      const first = compiled.validate.errors?.[0];
      return result(
        check,
        false,
        `Not valid against the schema: ${first?.instancePath || '(the answer)'} ${first?.message ?? 'does not match'}.`,
      );
    }
    case 'semantic_similarity':
      // Without an embedder (runChecks gives one when the agent has an embedding model): term vectors.
      return similarityResult(check, similarity(answer, check.reference), TERM_VECTOR_LABEL, 'term-vector');
    case 'faithfulness':
    case 'answers_from_knowledge': {
      // Without a judge model (runChecks gives one when the testing model is online): lexical.
      const sources = input.sources ?? [];
      return groundedResult(check, lexicalGrades(input.question ?? '', answer, sources), sources.length, 'lexical');
    }
    case 'retrieval_recall': {
      const { recall, missing } = retrievalRecall(check.expected, input.sources ?? []);
      return result(
        check,
        recall >= check.min,
        `Recall ${Math.round(recall * 100)}% (${check.expected.length - missing.length} of ${check.expected.length} expected sources retrieved)${
          missing.length ? `; missing: ${missing.join(', ')}` : ''
        }.`,
      );
    }
  }
};

/**
 * A tool's name as checks compare it: the model calls an app or MCP tool by its upper-cased slug
 * (`GOOGLECALENDAR_CREATE_EVENT`, `GET_WEATHER`), while people write the name they know
 * (`get_weather`, `googlecalendar-create-event`). Case and separators do not count.
 */
const toolKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');

/**
 * Runs a question's checks. `embedder` is the agent's embedding model, when one is configured:
 * semantic similarity then compares the answer and the reference by meaning; without one (or when
 * the model fails) it falls back to term vectors, and the result says which ran.
 */
export const runChecks = async (
  checks: TQuestionCheck[] | undefined,
  input: CheckInput,
  embedder?: CheckEmbedder | null,
  signal?: AbortSignal,
  grader?: ClaimGrader | null,
): Promise<TCheckResult[]> => {
  const results: TCheckResult[] = [];
  // The judge grades the answer's claims once for every grounding check of the question.
  let graded: Promise<TClaimGrades | null> | undefined;
  for (const check of checks ?? []) {
    if ((check.type === 'faithfulness' || check.type === 'answers_from_knowledge') && grader) {
      const sources = input.sources ?? [];
      graded ??= grader(input.question ?? '', input.answer.slice(0, ANSWER_MAX), sources);
      const grades = await graded;
      if (grades) results.push(groundedResult(check, grades, sources.length, 'judge'));
      else {
        const fallback = runCheck(check, input);
        results.push({ ...fallback, detail: fallback.detail.replace(LEXICAL_LABEL, JUDGE_UNREADABLE_LABEL) });
      }
    } else if (check.type === 'semantic_similarity' && embedder) {
      const answer = input.answer.slice(0, ANSWER_MAX);
      const measured = await semanticSimilarity(embedder, answer, check.reference, signal);
      results.push(
        measured === null
          ? similarityResult(
              check,
              similarity(answer, check.reference),
              `term-vector similarity: the embedding model ${embedder.label} did not answer`,
              'term-vector',
            )
          : similarityResult(check, measured, `embedding model ${embedder.label}`, 'embedding'),
      );
    } else results.push(runCheck(check, input));
  }
  return results;
};
