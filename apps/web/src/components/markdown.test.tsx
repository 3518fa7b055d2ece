import { renderMarkdown } from '@switchboard/core/widget/markdown';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown as ArticleMarkdown } from '../features/support/markdown';
import { Markdown } from './markdown';

const REPLY =
  '| Plan | Price |\n| --- | ---: |\n| Pro | `**$10**` |\n\n1. one\n   - nested\n2. [site](javascript:alert(1))';

describe('markdown in the workspace', () => {
  it('is the widget’s own rendering, so the designer’s preview shows what visitors see', () => {
    const html = renderToStaticMarkup(<Markdown text={REPLY} />);
    expect(html).toBe(`<div class="markdown">${renderMarkdown(REPLY)}</div>`);
    expect(html).toContain('<td align="right"><code>**$10**</code></td>');
    expect(html).toContain('<ol><li>one<ul><li>nested</li></ul></li><li>site</li></ol>');
    expect(html).not.toContain('javascript');
  });

  it('renders help articles with the same renderer, without their title line', () => {
    const html = renderToStaticMarkup(
      <ArticleMarkdown source={'# Connect Instagram\n\nOpen [Settings](/settings).\n\n| a |\n| - |\n| 1 |'} />,
    );
    expect(html).toBe(
      '<div class="markdown text-sm"><p>Open <a href="/settings">Settings</a>.</p><table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></div>',
    );
  });
});
