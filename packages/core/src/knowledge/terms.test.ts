import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25, buildBm25Index, searchBm25, termFrequencies, terms } from './terms';

const doc = (text: string) => ({ item: text, terms: termFrequencies(text), length: terms(text).length });

describe('BM25 inverted index', () => {
  it('ranks and scores as the plain BM25 scorer, keeping the best ones', () => {
    const texts = [
      'Our whitening session takes 90 minutes.',
      'Whitening whitening and more whitening for brighter teeth.',
      'Emergency appointments are kept every weekday.',
      'Check-ups cost 45 pounds; whitening costs 250.',
    ];
    const docs = texts.map(doc);
    const plain = bm25('How long does whitening take?', docs);
    const indexed = searchBm25(buildBm25Index(docs), 'How long does whitening take?', 3);
    expect(indexed.map((hit) => texts[hit.id])).toEqual(plain.slice(0, 3).map((hit) => hit.item));
    indexed.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(plain[i]?.score ?? 0, 10);
    });
    expect(searchBm25(buildBm25Index(docs), 'the and of', 3)).toEqual([]);
  });

  it('agrees with the plain scorer on any texts', () => {
    const word = fc.constantFrom('solar', 'panel', 'roof', 'price', 'battery', 'install', 'grant', 'loan', 'day');
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 30 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        (texts, question) => {
          const docs = texts.map((words) => doc(words.join(' ')));
          const plain = bm25(question.join(' '), docs).map((hit) => hit.score);
          const indexed = searchBm25(buildBm25Index(docs), question.join(' '), docs.length).map((hit) => hit.score);
          expect(indexed.length).toBe(plain.length);
          indexed.forEach((score, i) => {
            expect(score).toBeCloseTo(plain[i] ?? 0, 9);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
