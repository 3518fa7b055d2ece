import type { DOMPurify } from 'dompurify';
import { Marked } from 'marked';

/** The only schemes a link in a reply may use; anything else (javascript:, data:, vbscript:) is dropped. */
const SAFE_URL = /^(?:https?:|mailto:|tel:)/i;

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'target', 'rel', 'class', 'start', 'align'];

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Markdown for model replies: marked turns it into HTML (raw HTML in the reply is shown as text,
 * never parsed), then DOMPurify keeps only the tags above and safe link schemes, and every link
 * opens in a new tab without access to this page (rel noopener noreferrer).
 */
export const createMarkdownRenderer = (purifier: DOMPurify) => {
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({
    renderer: {
      html: ({ text }) => escapeHtml(text),
      image: ({ href, text }) => escapeHtml(text || href),
    },
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (!SAFE_URL.test(href.trim())) {
      node.removeAttribute('href');
      return;
    }
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  });
  return (source: string): string =>
    purifier.sanitize(marked.parse(source) as string, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP: SAFE_URL,
    });
};
