import type { KnowledgeKind } from '@switchboard/core';
import mammoth from 'mammoth';
import { marked, type Token, type Tokens } from 'marked';
import { getDocumentProxy } from 'unpdf';
import { papa } from '../../platform/csv';
import { chunkText, type ReadChunk, readChunk } from './chunk';
import { assertPdfStreamsWithin } from './pdf-streams';
import { storedZip, unzipWithin } from './zip-entries';

export type { ReadChunk } from './chunk';

/**
 * Reading an uploaded document: its plain text, in chunks ready for retrieval. Runs in a worker
 * thread (extract.ts), never on the server's main thread. Images and legacy .doc files are accepted
 * (spec file check) but carry no readable text; they are kept without chunks. `maxUnpackedBytes`
 * bounds what a DOCX unpacks to (zip-entries.ts) and each stream of a PDF (pdf-streams.ts).
 */

export const extractDocumentText = async (
  kind: KnowledgeKind,
  buffer: Buffer,
  maxUnpackedBytes: number,
): Promise<string> => {
  switch (kind) {
    case 'pdf':
      assertPdfStreamsWithin(buffer, maxUnpackedBytes);
      return pdfText(buffer);
    case 'docx':
      return (await mammoth.extractRawText({ buffer: storedZip(unzipWithin(buffer, maxUnpackedBytes, isDocxText)) }))
        .value;
    case 'markdown':
      return markdownToText(buffer.toString('utf8'));
    case 'csv':
      return csvToText(buffer.toString('utf8'));
    default:
      return '';
  }
};

/** The parts of a DOCX that hold its text: XML and relationships, not pictures or embedded files. */
const isDocxText = (name: string) => /\.(xml|rels)$/i.test(name);

/**
 * A PDF's text, its pages read one after the other (read at once, every page's inflated streams
 * would be in memory together), each page's text lines joined, the pages' whitespace collapsed.
 */
const pdfText = async (buffer: Buffer): Promise<string> => {
  const pdf = await getDocumentProxy(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const { items } = await page.getTextContent();
      pages.push(items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      page.cleanup();
    }
    return pages.join('\n').replace(/\s+/g, ' ');
  } finally {
    await pdf.destroy();
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
  const parsed = papa().parse<Record<string, string>>(csv.trim(), { header: true, skipEmptyLines: true });
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

/** A document's chunks with their retrieval terms. */
export const readDocument = async (
  kind: KnowledgeKind,
  buffer: Buffer,
  maxUnpackedBytes: number,
): Promise<ReadChunk[]> => chunkText(await extractDocumentText(kind, buffer, maxUnpackedBytes)).map(readChunk);
