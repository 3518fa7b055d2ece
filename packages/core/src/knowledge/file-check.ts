import { z } from 'zod';
import { zWebAddress } from '../http/web-address';

/** Knowledge uploads: at most 25 MB (spec/evaluation.md 9). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  missing: 'No file provided',
  tooLarge: 'File exceeds 25MB limit',
  type: 'Unsupported file type',
  name: 'Invalid file name',
} as const;

const ALLOWED_MIME = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
  'application/csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
]);
const ALLOWED_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'pdf',
  'md',
  'markdown',
  'csv',
  'docx',
  'doc',
]);

export type KnowledgeKind = 'image' | 'pdf' | 'markdown' | 'csv' | 'docx' | 'doc';

const extensionOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';

/** The kind of an allowed file, by its type or (for generic types) its extension; null when refused. */
export const knowledgeKind = (name: string, mimeType: string): KnowledgeKind | null => {
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  const ext = extensionOf(name);
  const generic = mime === '' || mime === 'application/octet-stream' || mime === 'text/plain';
  if (!ALLOWED_MIME.has(mime) && !mime.startsWith('image/') && !(generic && ALLOWED_EXTENSIONS.has(ext))) return null;
  if (mime.startsWith('image/') || ['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (mime === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (mime.includes('markdown') || ext === 'md' || ext === 'markdown') return 'markdown';
  if (mime.includes('csv') || ext === 'csv') return 'csv';
  if (mime.includes('wordprocessingml') || ext === 'docx') return 'docx';
  if (mime === 'application/msword' || ext === 'doc') return 'doc';
  return null;
};

/**
 * The upload check of spec/evaluation.md 5, in its order: no file, over 25 MB, type, name.
 * Returns the message of the first rule broken, or null.
 */
export const checkUpload = (
  file: { name: string; size: number; mimeType: string } | null | undefined,
): string | null => {
  if (!file) return UPLOAD_MESSAGES.missing;
  if (file.size > MAX_UPLOAD_BYTES) return UPLOAD_MESSAGES.tooLarge;
  if (!knowledgeKind(file.name, file.mimeType)) return UPLOAD_MESSAGES.type;
  if (file.name.includes('..') || file.name.includes('/')) return UPLOAD_MESSAGES.name;
  return null;
};

export const ZKnowledgeDocument = z.object({
  id: z.string(),
  agentId: z.string(),
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  chunkCount: z.number().int(),
  createdAt: z.string(),
});
export type TKnowledgeDocument = z.infer<typeof ZKnowledgeDocument>;
/**
 * How the agent's knowledge is searched: 'hybrid' (keywords and meaning, with the embedding model
 * of the agent's provider; `indexed` of `total` passages have their vector) or 'keyword' (BM25 alone).
 */
export const ZKnowledgeSearch = z.object({
  mode: z.enum(['hybrid', 'keyword']),
  model: z.string().nullable(),
  indexed: z.number().int(),
  total: z.number().int(),
});
export type TKnowledgeSearch = z.infer<typeof ZKnowledgeSearch>;
export const ZKnowledgeDocumentList = z.object({ documents: z.array(ZKnowledgeDocument), search: ZKnowledgeSearch });

/** POST /api/agents/{agentId}/websites: a page or a sitemap whose site becomes knowledge. */
export const ZAddWebsiteRequest = z.object({
  url: zWebAddress(2000),
  maxPages: z.number().int().min(1, { error: 'At least 1 page' }).max(200, { error: 'At most 200 pages' }).default(20),
});
export type TAddWebsiteRequest = z.input<typeof ZAddWebsiteRequest>;

export const ZAddWebsiteResponse = z.object({
  site: z.string(),
  pages: z.number().int(),
  disallowed: z.number().int(),
  failed: z.number().int(),
  documents: z.array(z.object({ id: z.string(), name: z.string(), chunkCount: z.number().int() })),
});
export type TAddWebsiteResponse = z.infer<typeof ZAddWebsiteResponse>;
