/**
 * Knowledge text cut into retrieval chunks. Kept apart from the document readers (PDF, DOCX, CSV),
 * which only the reader's worker thread loads.
 */
import { termFrequencies, terms } from '@switchboard/core';

const CHUNK_CHARS = 900;

/**
 * A chunk ready to store: its text, its term frequencies for the keyword (BM25) scorer as the JSON
 * text of the `terms` column (a worker's answer of thousands of chunks then crosses to the main
 * thread as strings, which copy in a fraction of the time objects of terms would take), and its
 * length in terms.
 */
export interface ReadChunk {
  content: string;
  terms: string;
  length: number;
}

/** The chunk of this text, with its terms counted. */
export const readChunk = (content: string): ReadChunk => ({
  content,
  terms: JSON.stringify(termFrequencies(content)),
  length: terms(content).length,
});

/** Paragraphs: text between blank lines, whitespace collapsed (a linear scan, no regex backtracking). */
const paragraphsOf = (text: string): string[] => {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of text.replace(/\r/g, '').split('\n')) {
    if (line.trim() === '') {
      if (current.length) paragraphs.push(current.join(' '));
      current = [];
    } else current.push(line);
  }
  if (current.length) paragraphs.push(current.join(' '));
  return paragraphs.map((part) => part.replace(/\s+/g, ' ').trim()).filter(Boolean);
};

/** Paragraph-aligned chunks of at most ~900 characters (long paragraphs are split by sentence). */
export const chunkText = (text: string): string[] => {
  const pieces: string[] = [];
  for (const paragraph of paragraphsOf(text)) {
    if (paragraph.length <= CHUNK_CHARS) {
      pieces.push(paragraph);
      continue;
    }
    let current = '';
    for (const sentence of paragraph.split(/(?<=[.!?]) /)) {
      if (current && current.length + sentence.length + 1 > CHUNK_CHARS) {
        pieces.push(current);
        current = '';
      }
      current = current ? `${current} ${sentence}` : sentence.slice(0, CHUNK_CHARS * 2);
    }
    if (current) pieces.push(current);
  }
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + piece.length + 2 > CHUNK_CHARS) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
};
