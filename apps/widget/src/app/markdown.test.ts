import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('escapes HTML before adding markup', () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"> **bold** <script>x</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('<strong>bold</strong>');
  });

  it('renders lists, code, italics and only http(s) links', () => {
    const html = renderMarkdown(
      '- one\n- *two*\n\n1. first\n\n`a<b`\n\n[site](https://example.com) [bad](javascript:alert(1))',
    );
    expect(html).toContain('<ul><li>one</li><li><em>two</em></li></ul>');
    expect(html).toContain('<ol><li>first</li></ol>');
    expect(html).toContain('<code>a&lt;b</code>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(html).not.toContain('href="javascript');
  });

  it('keeps code blocks as preformatted, escaped text', () => {
    expect(renderMarkdown('```js\nconst a = "<b>";\n```')).toBe(
      '<pre><code>const a = &quot;&lt;b&gt;&quot;;\n</code></pre>',
    );
  });
});
