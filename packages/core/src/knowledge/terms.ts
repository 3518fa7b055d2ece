/** Words too common to say anything about a text. */
const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can
could did do does doing down during each few for from further had has have having he her here hers herself him himself his how
i if in into is it its itself just let me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves
please tell know want need like get also use using used one two may might must shall us okay ok hi hello hey thanks thank`.split(
    /\s+/,
  ),
);

/** Lower-case word stems of a text, without stop words (a light stemmer: plural and -ing/-ed endings). */
export const terms = (text: string): string[] => {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
};

const stem = (word: string): string => {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
};

export const termFrequencies = (text: string): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const term of terms(text)) counts[term] = (counts[term] ?? 0) + 1;
  return counts;
};

export interface ScoredDoc<T> {
  item: T;
  score: number;
}

/** Okapi BM25 over small in-memory collections (k1 1.2, b 0.75). */
export const bm25 = <T>(
  query: string,
  docs: { item: T; terms: Record<string, number>; length: number }[],
): ScoredDoc<T>[] => {
  const queryTerms = [...new Set(terms(query))];
  if (!queryTerms.length || !docs.length) return [];
  const avgLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const docFreq = new Map<string, number>();
  for (const term of queryTerms) {
    docFreq.set(term, docs.filter((doc) => (doc.terms[term] ?? 0) > 0).length);
  }
  const n = docs.length;
  const scored: ScoredDoc<T>[] = [];
  for (const doc of docs) {
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.terms[term] ?? 0;
      if (!tf) continue;
      const df = docFreq.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += idf * ((tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * doc.length) / avgLength)));
    }
    if (score > 0) scored.push({ item: doc.item, score });
  }
  return scored.sort((a, b) => b.score - a.score);
};
