import { renderMarkdown } from '@switchboard/core/widget/markdown';
import { useMemo } from 'react';
import { cn } from '../lib/cn';

/**
 * Markdown as the visitor's widget shows it: the widget's own renderer (packages/core
 * widget/markdown.ts), so the designer's preview, transcripts and help articles match the widget.
 */
export const Markdown = ({ text, className }: { text: string; className?: string }) => {
  const html = useMemo(() => renderMarkdown(text), [text]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the renderer escapes all text and emits only its own tags and safe links
  return <div className={cn('markdown', className)} dangerouslySetInnerHTML={{ __html: html }} />;
};
