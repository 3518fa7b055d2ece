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

/**
 * An inverted index for BM25 over many chunks: each term's postings (chunk number and count) in
 * typed arrays, so a question touches only the chunks that contain its terms. Built once when an
 * agent's chunks are loaded; `searchBm25` gives the same scores as `bm25`.
 */
export interface Bm25Index {
  n: number;
  avgLength: number;
  lengths: Float64Array;
  postings: Map<string, { ids: Int32Array; tfs: Float64Array }>;
}

export const buildBm25Index = (docs: { terms: Record<string, number>; length: number }[]): Bm25Index => {
  const lists = new Map<string, { ids: number[]; tfs: number[] }>();
  const lengths = new Float64Array(docs.length);
  let total = 0;
  docs.forEach((doc, id) => {
    lengths[id] = doc.length;
    total += doc.length;
    for (const term in doc.terms) {
      const tf = doc.terms[term] ?? 0;
      if (!tf) continue;
      let list = lists.get(term);
      if (!list) {
        list = { ids: [], tfs: [] };
        lists.set(term, list);
      }
      list.ids.push(id);
      list.tfs.push(tf);
    }
  });
  const postings = new Map<string, { ids: Int32Array; tfs: Float64Array }>();
  for (const [term, list] of lists)
    postings.set(term, { ids: Int32Array.from(list.ids), tfs: Float64Array.from(list.tfs) });
  return { n: docs.length, avgLength: total / (docs.length || 1) || 1, lengths, postings };
};

/** The best `limit` chunks for a question: their numbers in the indexed list and their scores. */
export const searchBm25 = (index: Bm25Index, query: string, limit: number): { id: number; score: number }[] => {
  const queryTerms = [...new Set(terms(query))];
  if (!queryTerms.length || !index.n) return [];
  const scores = new Float64Array(index.n);
  const touched: number[] = [];
  for (const term of queryTerms) {
    const list = index.postings.get(term);
    if (!list) continue;
    const df = list.ids.length;
    const idf = Math.log(1 + (index.n - df + 0.5) / (df + 0.5));
    for (let i = 0; i < df; i += 1) {
      const id = list.ids[i] as number;
      const tf = list.tfs[i] as number;
      const norm = tf + 1.2 * (1 - 0.75 + (0.75 * (index.lengths[id] as number)) / index.avgLength);
      if (scores[id] === 0) touched.push(id);
      scores[id] = (scores[id] as number) + idf * ((tf * 2.2) / norm);
    }
  }
  // A small sorted top list: O(touched × limit), no sort of every match.
  const top: { id: number; score: number }[] = [];
  for (const id of touched) {
    const score = scores[id] as number;
    if (score <= 0) continue;
    if (top.length === limit && score <= (top[top.length - 1]?.score ?? 0)) continue;
    let at = top.length;
    while (at > 0 && (top[at - 1]?.score ?? 0) < score) at -= 1;
    top.splice(at, 0, { id, score });
    if (top.length > limit) top.pop();
  }
  return top;
};
