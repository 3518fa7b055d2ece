import { terms } from '@switchboard/core';
import { z } from 'zod';

/**
 * Knowledge-grounded checks: whether the answer stays within the excerpts the agent retrieved
 * (faithfulness, answers only from knowledge) and whether it retrieved the sources a test expects
 * (retrieval recall). With a judge model the claims are graded by the model; the offline fallback
 * is lexical (each sentence's content words must appear in the excerpts) and labelled so.
 */

export interface RetrievedSource {
  documentId: string;
  name: string;
  excerpt: string;
}

export const ZClaimGrades = z.object({
  claims: z.array(z.object({ claim: z.string(), supported: z.boolean() })),
  /** Whether any excerpt is relevant to the question at all. */
  relevant: z.boolean(),
  /** Whether the answer declines or says it does not know. */
  declined: z.boolean(),
});
export type TClaimGrades = z.infer<typeof ZClaimGrades>;

/** Grades the answer's claims against the excerpts with the judge model; null when it gave nothing readable. */
export type ClaimGrader = (
  question: string,
  answer: string,
  sources: RetrievedSource[],
) => Promise<TClaimGrades | null>;

export const LEXICAL_LABEL = 'lexical check, offline fallback: no judge model (content words of each sentence)';

/** Share of a sentence's content words that must appear in the excerpts for it to count as supported. */
const LEXICAL_MIN = 0.7;

const DECLINE =
  /\b(I (?:do not|don't) (?:know|have (?:that|this|any|enough) information)|I(?:'m| am) not sure|I (?:could|can)(?:no|')?t find|(?:no|not any) information (?:about|on)|not in my knowledge|I can(?:no|')t (?:help|answer)|I cannot (?:help|answer)|I(?:'m| am) (?:not able|unable) to)\b/i;

export const declines = (answer: string) => DECLINE.test(answer);

/** The answer's sentences that state something (two content words or more), with those not found in the excerpts. */
export const lexicalGrades = (question: string, answer: string, sources: RetrievedSource[]): TClaimGrades => {
  const known = new Set(sources.flatMap((source) => terms(`${source.name} ${source.excerpt}`)));
  const asked = new Set(terms(question));
  const claims = answer
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => terms(sentence).length >= 2 && !DECLINE.test(sentence))
    .map((claim) => {
      const words = terms(claim).filter((word) => !asked.has(word));
      const found = words.filter((word) => known.has(word)).length;
      return { claim, supported: words.length === 0 || found / words.length >= LEXICAL_MIN };
    });
  const questionTerms = [...asked];
  const relevant = questionTerms.length === 0 ? sources.length > 0 : questionTerms.some((word) => known.has(word));
  return { claims, relevant: sources.length > 0 && relevant, declined: declines(answer) };
};

/** Recall of the expected sources (by name, case-insensitive, or document id) among the retrieved ones. */
export const retrievalRecall = (expected: string[], sources: RetrievedSource[]) => {
  const retrieved = sources.flatMap((source) => [source.documentId, source.name.trim().toLowerCase()]);
  const found = expected.filter((wanted) => retrieved.includes(wanted) || retrieved.includes(wanted.toLowerCase()));
  return {
    recall: expected.length ? found.length / expected.length : 1,
    missing: expected.filter((wanted) => !found.includes(wanted)),
  };
};

export const groundingSystem = () =>
  [
    "You check whether an assistant's answer is grounded in the knowledge excerpts it retrieved.",
    'Split the answer into its factual claims (leave out greetings, questions back to the user and offers to help).',
    'A claim is supported only when the excerpts state it or it follows directly from them.',
    'Reply with a JSON object with exactly these keys:',
    '"claims": an array of objects {"claim": string, "supported": boolean}, one per claim of the answer;',
    '"relevant": boolean, true when at least one excerpt is relevant to the question;',
    '"declined": boolean, true when the answer declines or says it does not know.',
  ].join('\n');

export const groundingPrompt = (question: string, answer: string, sources: RetrievedSource[]) =>
  [
    `Question:\n${question}`,
    `Answer:\n${answer}`,
    sources.length
      ? `Retrieved excerpts:\n${sources.map((source, index) => `[${index + 1}] ${source.name}\n${source.excerpt}`).join('\n\n')}`
      : 'Retrieved excerpts: none.',
  ].join('\n\n');
