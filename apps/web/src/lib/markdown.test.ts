import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer } from './markdown';

const window = new JSDOM('').window;
const render = createMarkdownRenderer(createDOMPurify(window as unknown as Window & typeof globalThis));
const dom = (html: string) => {
  const host = window.document.createElement('div');
  host.innerHTML = html;
  return host;
};

describe('reply markdown', () => {
  it('renders emphasis, lists, code blocks and line breaks', () => {
    const html = render('**Opening hours**\nMon to *Fri*\n\n- one\n- two\n\n```js\nconst a = 1 < 2;\n```');
    const host = dom(html);
    expect(host.querySelector('strong')?.textContent).toBe('Opening hours');
    expect(host.querySelector('em')?.textContent).toBe('Fri');
    expect(host.querySelectorAll('li')).toHaveLength(2);
    expect(host.querySelector('pre code')?.textContent).toBe('const a = 1 < 2;\n');
    expect(host.querySelector('br')).not.toBeNull();
    expect(html).not.toContain('**');
  });

  it('opens links in a new tab without access to the page', () => {
    const link = dom(render('See [our prices](https://example.com/prices).')).querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com/prices');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('keeps no script, handler or javascript: URL from a hostile reply', () => {
    const attempts = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '[click](javascript:alert(1))',
      '[click](JaVaScRiPt:alert(1))',
      '[click](  javascript:alert(1))',
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '<a href="javascript:alert(1)">x</a>',
      '<svg onload=alert(1)><circle/></svg>',
      '<iframe src="https://evil.example"></iframe>',
      '![x](https://evil.example/pixel.png" onerror="alert(1))',
      '<details open ontoggle=alert(1)>',
      '[x](vbscript:msgbox(1))',
      '<style>body{display:none}</style>',
    ];
    for (const attempt of attempts) {
      const host = dom(render(attempt));
      expect(host.querySelector('script,img,svg,iframe,style,details,object,embed'), attempt).toBeNull();
      for (const element of host.querySelectorAll('*')) {
        for (const attribute of element.attributes) {
          expect(attribute.name.startsWith('on'), `${attempt}: ${attribute.name}`).toBe(false);
          if (attribute.name === 'href') expect(attribute.value, attempt).toMatch(/^(https?:|mailto:|tel:)/);
        }
      }
    }
  });

  it('shows raw HTML in a reply as text', () => {
    const host = dom(render('Use <b>bold</b> tags'));
    expect(host.textContent).toContain('<b>bold</b>');
    expect(host.querySelector('b')).toBeNull();
  });
});
