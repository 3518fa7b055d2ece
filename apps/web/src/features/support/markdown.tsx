import { Markdown as SharedMarkdown } from '../../components/markdown';

/**
 * A help article's markdown, through the same renderer as the widget's replies. The article's own
 * `# Title` line is left out: the page shows the title above the body.
 */
export const Markdown = ({ source }: { source: string }) => (
  <SharedMarkdown text={source.replace(/^\s*# [^\n]*\n+/, '')} className="text-sm" />
);
