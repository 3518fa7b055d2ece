import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { cn } from '../lib/cn';
import { createMarkdownRenderer } from '../lib/markdown';

let render: ((source: string) => string) | null = null;
const renderMarkdown = (source: string) => {
  render ??= createMarkdownRenderer(DOMPurify);
  return render(source);
};

/** A reply shown as sanitised markdown: the one way the workspace shows what an agent wrote. */
export const Markdown = ({ text, className }: { text: string; className?: string }) => {
  const html = useMemo(() => renderMarkdown(text), [text]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is DOMPurify's output with an allow-list of tags
  return <div className={cn('markdown', className)} dangerouslySetInnerHTML={{ __html: html }} />;
};
