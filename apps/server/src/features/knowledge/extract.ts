import type { KnowledgeKind } from '@switchboard/core';
import mammoth from 'mammoth';
import Papa from 'papaparse';
import { extractText } from 'unpdf';

/**
 * Plain text of an uploaded document. Images and legacy .doc files are accepted (spec file check)
 * but carry no readable text; they are kept without chunks.
 */
export const extractDocumentText = async (kind: KnowledgeKind, buffer: Buffer): Promise<string> => {
  switch (kind) {
    case 'pdf': {
      const { text } = await extractText(new Uint8Array(buffer), { mergePages: true });
      return text;
    }
    case 'docx':
      return (await mammoth.extractRawText({ buffer })).value;
    case 'markdown':
      return markdownToText(buffer.toString('utf8'));
    case 'csv':
      return csvToText(buffer.toString('utf8'));
    default:
      return '';
  }
};

/** Markdown without its markup, one block a paragraph. */
const markdownToText = (markdown: string) =>
  markdown
    .replace(/```[\s\S]*?```/g, (block) => block.replace(/```\w*/g, ''))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+(.*)$/gm, '$1.')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/[*_`~]/g, '')
    .replace(/\.\.$/gm, '.');

/** Each CSV row as "header: value; header: value". */
const csvToText = (csv: string) => {
  const parsed = Papa.parse<Record<string, string>>(csv.trim(), { header: true, skipEmptyLines: true });
  const fields = parsed.meta.fields ?? [];
  return parsed.data
    .map((row) =>
      fields
        .map((field) => `${field}: ${row[field] ?? ''}`)
        .join('; ')
        .concat('.'),
    )
    .join('\n\n');
};

const CHUNK_CHARS = 900;

/** Paragraph-aligned chunks of at most ~900 characters (long paragraphs are split by sentence). */
export const chunkText = (text: string): string[] => {
  const paragraphs = text
    .replace(/\r/g, '')
    .split(/\n\s*\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const pieces: string[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.length <= CHUNK_CHARS) {
      pieces.push(paragraph);
      continue;
    }
    let current = '';
    for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
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
