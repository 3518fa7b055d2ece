import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

const A = ' target="_blank" rel="noopener noreferrer nofollow"';

/** CommonMark and GFM examples (adapted: a line break inside a paragraph is a <br>, as in a chat). */
const CASES: [string, string, string][] = [
  ['paragraphs', 'one\n\ntwo', '<p>one</p><p>two</p>'],
  ['a line break in a paragraph', 'one\ntwo', '<p>one<br>two</p>'],
  ['ATX headings', '# One\n### Three ###\n####### seven', '<h1>One</h1><h3>Three</h3><p>####### seven</p>'],
  ['a heading needs a space', '#5 bolt', '<p>#5 bolt</p>'],
  [
    'emphasis and strong',
    '*em* _em_ **strong** __strong__',
    '<p><em>em</em> <em>em</em> <strong>strong</strong> <strong>strong</strong></p>',
  ],
  ['nested emphasis', '**bold *and em***', '<p><strong>bold <em>and em</em></strong></p>'],
  ['strong inside emphasis', '*a **b** c*', '<p><em>a <strong>b</strong> c</em></p>'],
  [
    'emphasis and strong ending together',
    '***both*** and *a **b***',
    '<p><strong><em>both</em></strong> and <em>a <strong>b</strong></em></p>',
  ],
  ['no emphasis inside words with _', 'snake_case_name', '<p>snake_case_name</p>'],
  ['a lone star is text', '2 * 3 = 6', '<p>2 * 3 = 6</p>'],
  ['strikethrough', '~~gone~~', '<p><del>gone</del></p>'],
  [
    'code span: nothing formatted inside',
    '`**not bold**` and `<b>`',
    '<p><code>**not bold**</code> and <code>&lt;b&gt;</code></p>',
  ],
  ['code span with backticks inside', '`` a ` b ``', '<p><code>a ` b</code></p>'],
  ['an unclosed backtick is text', 'a `b', '<p>a `b</p>'],
  ['emphasis does not close inside code', '*a `*` b*', '<p><em>a <code>*</code> b</em></p>'],
  ['backslash escapes', '\\*not em\\* \\`', '<p>*not em* `</p>'],
  ['links', '[site](https://example.com "Home")', `<p><a href="https://example.com" title="Home"${A}>site</a></p>`],
  [
    'links with formatting',
    '[**bold** site](https://example.com)',
    `<p><a href="https://example.com"${A}><strong>bold</strong> site</a></p>`,
  ],
  [
    'mailto, tel and site paths',
    '[m](mailto:a@b.co) [t](tel:+155) [p](/help)',
    `<p><a href="mailto:a@b.co"${A}>m</a> <a href="tel:+155"${A}>t</a> <a href="/help">p</a></p>`,
  ],
  ['an image shows its alt text', '![a cat](https://example.com/cat.png)', '<p>a cat</p>'],
  ['unordered list', '- one\n- two', '<ul><li>one</li><li>two</li></ul>'],
  ['ordered list with a start', '3. three\n4. four', '<ol start="3"><li>three</li><li>four</li></ol>'],
  [
    'nested lists',
    '1. first\n   - a\n   - b\n2. second\n   1. x\n      - deep',
    '<ol><li>first<ul><li>a</li><li>b</li></ul></li><li>second<ol><li>x<ul><li>deep</li></ul></li></ol></li></ol>',
  ],
  ['nested list indented by two under a bullet', '- a\n  - b\n- c', '<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>'],
  ['loose list', '- a\n\n- b', '<ul><li><p>a</p></li><li><p>b</p></li></ul>'],
  ['a change of marker starts a new list', '- a\n+ b', '<ul><li>a</li></ul><ul><li>b</li></ul>'],
  ['a list after a paragraph', 'Steps:\n1. one\n2. two', '<p>Steps:</p><ol><li>one</li><li>two</li></ol>'],
  ['only 1. interrupts a paragraph', 'The year\n2024. was good', '<p>The year<br>2024. was good</p>'],
  ['lazy continuation', '- a\nb', '<ul><li>a<br>b</li></ul>'],
  [
    'fenced code with a language',
    '```js\nconst a = "<b>";\n```',
    '<pre><code class="language-js">const a = &quot;&lt;b&gt;&quot;;\n</code></pre>',
  ],
  ['tilde fence keeps markdown as text', '~~~\n**x** | y\n~~~', '<pre><code>**x** | y\n</code></pre>'],
  ['indented code', '    a < b', '<pre><code>a &lt; b\n</code></pre>'],
  ['code in a list item', '- run:\n  ```\n  npm i\n  ```', '<ul><li>run:<pre><code>npm i\n</code></pre></li></ul>'],
  ['block quote', '> quoted **text**\n> more', '<blockquote><p>quoted <strong>text</strong><br>more</p></blockquote>'],
  ['thematic break', 'a\n\n---\n\nb', '<p>a</p><hr><p>b</p>'],
  [
    'GFM table with alignment (a pipe splits cells even in code, as in GFM)',
    '| Plan | Price |\n| :--- | ---: |\n| Pro | $10 |\n| `a|b` | **x** |',
    '<table><thead><tr><th align="left">Plan</th><th align="right">Price</th></tr></thead><tbody><tr><td align="left">Pro</td><td align="right">$10</td></tr><tr><td align="left">`a</td><td align="right">b`</td></tr></tbody></table>',
  ],
  [
    'GFM table without outer pipes, escaped pipe, short row',
    'a | b\n--- | :-:\nx \\| y\nz | w',
    '<table><thead><tr><th>a</th><th align="center">b</th></tr></thead><tbody><tr><td>x | y</td><td align="center"></td></tr><tr><td>z</td><td align="center">w</td></tr></tbody></table>',
  ],
  ['a header row alone is no table', '| a | b |\n| --- |', '<p>| a | b |<br>| --- |</p>'],
  [
    'table ends at a blank line',
    '| a |\n| - |\n| 1 |\n\nafter',
    '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><p>after</p>',
  ],
];

/** Whatever the input, no markup but the renderer's own: scripts, handlers and unsafe links are text. */
const XSS: [string, string][] = [
  [
    `a ${String.fromCharCode(0)} b ${String.fromCharCode(2)}c${String.fromCharCode(3)}`,
    '<p>a \uFFFD b \uFFFDc\uFFFD</p>',
  ],
  ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['<img src=x onerror="alert(1)">', '<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>'],
  ['[x](javascript:alert(1))', '<p>x</p>'],
  ['[x](JaVaScRiPt:alert(1))', '<p>x</p>'],
  ['[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>x</p>'],
  ['[x](vbscript:msgbox)', '<p>x</p>'],
  ['[x](//evil.example)', '<p>x</p>'],
  [
    '[x](https://a.example/"onmouseover="alert(1))',
    `<p><a href="https://a.example/&quot;onmouseover=&quot;alert(1)"${A}>x</a></p>`,
  ],
  [
    '[x](<https://a.example/" onclick="alert(1)>)',
    `<p><a href="https://a.example/&quot; onclick=&quot;alert(1)"${A}>x</a></p>`,
  ],
  ['[<b>x</b>](https://a.example)', `<p><a href="https://a.example"${A}>&lt;b&gt;x&lt;/b&gt;</a></p>`],
  ['![<svg onload=alert(1)>](x)', '<p>&lt;svg onload=alert(1)&gt;</p>'],
  [
    '```"><script>\n<script>\n```',
    '<pre><code class="language-&quot;&gt;&lt;script&gt;">&lt;script&gt;\n</code></pre>',
  ],
  [
    '| <i>a</i> |\n| - |\n| <script> |',
    '<table><thead><tr><th>&lt;i&gt;a&lt;/i&gt;</th></tr></thead><tbody><tr><td>&lt;script&gt;</td></tr></tbody></table>',
  ],
  ['\'single\' & "double"', '<p>&#39;single&#39; &amp; &quot;double&quot;</p>'],
];

describe('renderMarkdown', () => {
  it('stays fast on adversarial input (unclosed delimiters, brackets, deep nesting)', () => {
    const started = performance.now();
    renderMarkdown('*a '.repeat(7000));
    renderMarkdown('['.repeat(20_000));
    renderMarkdown('**a '.repeat(5000));
    renderMarkdown(
      Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}- a\n\n${' '.repeat(i * 2 + 2)}b\n`).join('\n'),
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each(CASES)('%s', (_name, source, html) => {
    expect(renderMarkdown(source)).toBe(html);
  });

  it.each(XSS)('is XSS-safe: %s', (source, html) => {
    expect(renderMarkdown(source)).toBe(html);
  });

  it('only ever emits its own tags and attributes', () => {
    const sources = [...CASES.map((row) => row[1]), ...XSS.map((row) => row[0])];
    const tags = new Set<string>();
    for (const source of sources)
      for (const match of renderMarkdown(source).matchAll(/<\/?([a-z0-9]+)([^>]*)>/g)) {
        tags.add(match[1] as string);
        expect(match[2]).toMatch(/^(?:\s(?:href|title|target|rel|class|start|align)="[^"<>]*")*$/);
      }
    expect(
      [...tags].every((tag) =>
        /^(p|br|h[1-6]|em|strong|del|code|pre|a|ul|ol|li|blockquote|hr|table|thead|tbody|tr|th|td)$/.test(tag),
      ),
    ).toBe(true);
  });
});
