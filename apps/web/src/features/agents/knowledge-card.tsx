import { checkUpload, type TAddWebsiteResponse, type TKnowledgeSearch } from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { FileText, Globe, RefreshCw, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { FieldError, Input, Label } from '../../components/ui/input';
import { api } from '../../lib/api';
import { toast } from '../../lib/toast';
import { documentsKey, uploadDocument, useDocuments } from './api';

const ACCEPT = '.pdf,.md,.markdown,.csv,.docx,.doc,image/*,application/pdf,text/markdown,text/csv';

const size = (bytes: number) =>
  bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The agent's documents: uploaded, read into chunks and searched for every reply. */
export const KnowledgeCard = ({ agentId, canEdit }: { agentId: string; canEdit: boolean }) => {
  const documents = useDocuments(agentId);
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: documentsKey(agentId) });

  const upload = async (file: File | undefined) => {
    const refused = checkUpload(file ? { name: file.name, size: file.size, mimeType: file.type } : null);
    if (refused || !file) {
      setError(refused);
      return;
    }
    setError(null);
    setUploading(true);
    try {
      const created = await uploadDocument(agentId, file);
      toast.success(
        created.chunkCount ? `${created.name} added` : `${created.name} added; no text could be read from it`,
      );
      await refresh();
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : 'Upload failed');
    } finally {
      setUploading(false);
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const [siteUrl, setSiteUrl] = useState('');
  const [maxPages, setMaxPages] = useState('20');
  const [crawling, setCrawling] = useState<string | null>(null);
  const [siteError, setSiteError] = useState<string | null>(null);
  const crawl = async (url: string) => {
    const target = url.trim();
    if (!/^https?:\/\//i.test(target)) {
      setSiteError('Enter a web address starting with http:// or https://');
      return;
    }
    setSiteError(null);
    setCrawling(target);
    try {
      const result = await api<TAddWebsiteResponse>(`/api/agents/${agentId}/websites`, {
        body: { url: target, maxPages: Math.max(1, Math.min(200, Number(maxPages) || 20)) },
        silent: true,
      });
      toast.success(
        `${result.pages} ${result.pages === 1 ? 'page' : 'pages'} of ${result.site} added${
          result.disallowed ? ` (${result.disallowed} not allowed by robots.txt)` : ''
        }`,
      );
      setSiteUrl('');
      await refresh();
    } catch (thrown) {
      setSiteError(thrown instanceof Error ? thrown.message : 'The website could not be added');
    } finally {
      setCrawling(null);
    }
  };
  const sites = [
    ...new Set(
      (documents.data?.documents ?? [])
        .filter((doc) => doc.mimeType === 'text/html')
        .map((doc) => {
          try {
            return new URL(doc.name).origin;
          } catch {
            return '';
          }
        })
        .filter(Boolean),
    ),
  ];

  const remove = async (documentId: string) => {
    await api(`/api/agents/${agentId}/documents/${documentId}`, { method: 'DELETE' });
    await refresh();
  };

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">Knowledge</h2>
          <p className="text-sm text-muted">
            PDF, Word, Markdown or CSV, up to 25 MB, and pages of your website. The agent answers from them and names
            its source.
          </p>
        </div>
        {canEdit ? (
          <>
            <input
              ref={inputRef}
              id="knowledge-file"
              type="file"
              accept={ACCEPT}
              className="sr-only"
              aria-label="Upload a document"
              onChange={(event) => void upload(event.target.files?.[0])}
            />
            <Button variant="secondary" disabled={uploading} onClick={() => inputRef.current?.click()}>
              <Upload size={16} aria-hidden="true" /> {uploading ? 'Uploading...' : 'Upload document'}
            </Button>
          </>
        ) : null}
      </div>
      <FieldError id="knowledge-error">{error}</FieldError>
      {canEdit ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void crawl(siteUrl);
          }}
        >
          <div className="min-w-[200px] flex-1 space-y-1">
            <Label htmlFor="knowledge-site">Website or sitemap</Label>
            <Input
              id="knowledge-site"
              value={siteUrl}
              onChange={(event) => setSiteUrl(event.target.value)}
              placeholder="https://www.example.com/ or https://www.example.com/sitemap.xml"
              aria-describedby={siteError ? 'knowledge-site-error' : undefined}
              aria-invalid={Boolean(siteError)}
              inputMode="url"
            />
          </div>
          <div className="w-24 space-y-1">
            <Label htmlFor="knowledge-pages">Pages</Label>
            <Input
              id="knowledge-pages"
              type="number"
              min={1}
              max={200}
              value={maxPages}
              onChange={(event) => setMaxPages(event.target.value)}
            />
          </div>
          <Button type="submit" variant="secondary" disabled={Boolean(crawling) || !siteUrl.trim()}>
            <Globe size={16} aria-hidden="true" />{' '}
            {crawling && crawling === siteUrl.trim() ? 'Reading...' : 'Add website'}
          </Button>
        </form>
      ) : null}
      <FieldError id="knowledge-site-error">{siteError}</FieldError>
      {canEdit && sites.length ? (
        <div className="flex flex-wrap gap-2">
          {sites.map((site) => (
            <Button
              key={site}
              size="sm"
              variant="ghost"
              disabled={Boolean(crawling)}
              onClick={() => void crawl(`${site}/`)}
              aria-label={`Re-crawl ${site}`}
            >
              <RefreshCw size={14} aria-hidden="true" /> {crawling === `${site}/` ? 'Reading...' : `Re-crawl ${site}`}
            </Button>
          ))}
        </div>
      ) : null}
      {documents.data?.search && documents.data.documents.length ? <SearchMode search={documents.data.search} /> : null}
      {documents.isLoading ? <Spinner label="Loading documents" /> : null}
      {documents.data?.documents.length === 0 ? <p className="text-sm text-muted">No documents yet.</p> : null}
      <ul className="divide-y divide-border" aria-label="Documents">
        {documents.data?.documents.map((doc) => (
          <li key={doc.id} className="flex items-center gap-3 py-2">
            {doc.mimeType === 'text/html' ? (
              <Globe size={18} className="shrink-0 text-muted" aria-hidden="true" />
            ) : (
              <FileText size={18} className="shrink-0 text-muted" aria-hidden="true" />
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{doc.name}</p>
              <p className="text-xs text-muted">
                {size(doc.sizeBytes)} · {doc.chunkCount} {doc.chunkCount === 1 ? 'passage' : 'passages'}
              </p>
            </div>
            {canEdit ? (
              <Button size="sm" variant="ghost" aria-label={`Remove ${doc.name}`} onClick={() => void remove(doc.id)}>
                <Trash2 size={14} aria-hidden="true" />
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
};

/** How replies search these documents: keywords and meaning, or keywords alone and why. */
const SearchMode = ({ search }: { search: TKnowledgeSearch }) => (
  <p role="status" className="text-xs text-muted" data-testid="knowledge-search">
    {search.mode === 'hybrid'
      ? search.indexed < search.total
        ? `Search: keywords and meaning (${search.model}). Indexing meaning: ${search.indexed} of ${search.total} passages.`
        : `Search: keywords and meaning (${search.model}).`
      : 'Search: keywords. Search by meaning needs an OpenAI model on this agent and an OpenAI key in Settings.'}
  </p>
);
