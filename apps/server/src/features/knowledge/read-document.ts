import { type KnowledgeKind, termFrequencies, terms } from '@switchboard/core';
import mammoth from 'mammoth';
import { marked, type Token, type Tokens } from 'marked';
import Papa from 'papaparse';
import { extractText } from 'unpdf';

/**
 * Reading an uploaded document: its plain text, in chunks ready for retrieval. Runs in a worker
 * thread (extract.ts), never on the server's main thread. Images and legacy .doc files are accepted
 * (spec file check) but carry no readable text; they are kept without chunks.
 */
export interface ReadChunk {
  content: string;
  terms: Record<string, number>;
  length: number;
}

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

/** The text of inline tokens: link and image texts, emphasis and code without their markup. */
const inlineText = (tokens: Token[] | undefined): string =>
  (tokens ?? [])
    .map((token) => {
      const withChildren = token as Token & { tokens?: Token[]; text?: string };
      if (withChildren.tokens?.length) return inlineText(withChildren.tokens);
      if (token.type === 'br') return '\n';
      return withChildren.text ?? '';
    })
    .join('');

/** A block token as text: headings end with a full stop, list items and table rows a line each. */
const blockText = (token: Token): string => {
  switch (token.type) {
    case 'heading': {
      const text = inlineText((token as Tokens.Heading).tokens).trim();
      return /[.!?:]$/.test(text) ? text : `${text}.`;
    }
    case 'paragraph':
    case 'text':
      return inlineText((token as Tokens.Paragraph).tokens) || (token as Tokens.Text).text;
    case 'code':
      return (token as Tokens.Code).text;
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.map(blockText).join('\n\n');
    case 'list':
      return (token as Tokens.List).items.map((item) => item.tokens.map(blockText).join(' ')).join('\n');
    case 'table': {
      const table = token as Tokens.Table;
      const header = table.header.map((cell) => inlineText(cell.tokens));
      return table.rows
        .map((row) => row.map((cell, index) => `${header[index] ?? ''}: ${inlineText(cell.tokens)}`).join('; '))
        .join('\n');
    }
    case 'html':
      return '';
    default:
      return (token as { text?: string }).text ?? '';
  }
};

/** Markdown without its markup, one block a paragraph (marked's lexer, not pattern replacements). */
export const markdownToText = (markdown: string): string =>
  marked
    .lexer(markdown)
    .map(blockText)
    .filter((text) => text.trim() !== '')
    .join('\n\n');

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

/** A document's chunks with their retrieval terms. */
export const readDocument = async (kind: KnowledgeKind, buffer: Buffer): Promise<ReadChunk[]> =>
  chunkText(await extractDocumentText(kind, buffer)).map((content) => ({
    content,
    terms: termFrequencies(content),
    length: terms(content).length,
  }));
