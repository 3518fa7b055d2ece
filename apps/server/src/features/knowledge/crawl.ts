import type * as Parse5 from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import { onFirstUse } from '../../platform/on-first-use';
import { BlockedAddressError, type OutboundPolicy, safeFetch } from '../../platform/outbound';

/**
 * Website knowledge: a start page or a sitemap, crawled within the same site (scheme, host and
 * port), robots.txt respected, at most `maxPages` pages, every request through the safe fetch
 * module (public addresses only, redirects vetted, time and size caps). HTML is parsed by parse5
 * (linear time); sitemaps are read with indexOf, never with a backtracking pattern.
 */

export interface CrawledPage {
  url: string;
  title: string;
  text: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** Addresses robots.txt did not allow. */
  disallowed: number;
  /** Pages that could not be read (errors, not HTML, empty). */
  failed: number;
}

/** The HTML parser, loaded by the first page read. */
const html5 = onFirstUse<typeof Parse5>('parse5');

const AGENT = 'SwitchboardBot';
const PAGE_BYTES = 2 * 1024 * 1024;
const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'svg', 'template', 'iframe', 'head']);
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'li',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'br',
  'table',
  'ul',
  'ol',
  'blockquote',
  'pre',
  'header',
  'aside',
  'dd',
  'dt',
]);

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const isElement = (node: Node): node is Element => 'tagName' in node;

/** robots.txt rules for our agent (or *): the longest matching Allow/Disallow prefix wins. */
export const robotsRules = (text: string) => {
  const groups: { agents: string[]; rules: { allow: boolean; path: string }[] }[] = [];
  let current: (typeof groups)[number] | null = null;
  let lastWasAgent = false;
  for (const raw of text.split('\n')) {
    const line = raw.split('#')[0]?.trim() ?? '';
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if ((key === 'allow' || key === 'disallow') && current) {
      lastWasAgent = false;
      if (value) current.rules.push({ allow: key === 'allow', path: value });
    }
  }
  const mine =
    groups.find((group) => group.agents.includes(AGENT.toLowerCase())) ??
    groups.find((group) => group.agents.includes('*'));
  const rules = mine?.rules ?? [];
  return (path: string): boolean => {
    let best: { allow: boolean; length: number } | null = null;
    for (const rule of rules) {
      const prefix = rule.path.replace(/\*$/, '').replace(/\$$/, '');
      if (!path.startsWith(prefix)) continue;
      if (rule.path.endsWith('$') && path !== prefix) continue;
      if (!best || prefix.length > best.length || (prefix.length === best.length && rule.allow)) {
        best = { allow: rule.allow, length: prefix.length };
      }
    }
    return best ? best.allow : true;
  };
};

/** The <loc> addresses of a sitemap (or sitemap index). */
export const sitemapLocations = (xml: string): string[] => {
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const start = xml.indexOf('<loc>', at);
    if (start < 0) break;
    const end = xml.indexOf('</loc>', start);
    if (end < 0) break;
    found.push(
      xml
        .slice(start + 5, end)
        .trim()
        .replace(/&amp;/g, '&'),
    );
    at = end + 6;
  }
  return found;
};

/** Tags whose text is not the page's content; links inside navigation and footers are still followed. */
const NO_TEXT_KEEP_LINKS = new Set(['nav', 'footer']);

/** The readable text, title and links of an HTML page (an explicit stack: any nesting depth). */
export const readPage = (html: string, base: URL): { title: string; text: string; links: string[] } => {
  const document = html5().parse(html);
  let title = '';
  const links: string[] = [];
  const out: string[] = [];
  // Entries: a node to visit with whether its text counts, or a block boundary to write.
  const stack: ({ node: Node; text: boolean } | '\n\n')[] = [{ node: document as unknown as Node, text: true }];
  while (stack.length) {
    const entry = stack.pop() as (typeof stack)[number];
    if (entry === '\n\n') {
      out.push(entry);
      continue;
    }
    const { node } = entry;
    let text = entry.text;
    if (isElement(node)) {
      const tag = node.tagName;
      if (tag === 'title') {
        title ||= node.childNodes
          .map((child) => ('value' in child ? String(child.value) : ''))
          .join('')
          .trim();
        continue;
      }
      if (tag === 'a') {
        const href = node.attrs.find((attr) => attr.name === 'href')?.value;
        if (href) links.push(href);
      }
      if (NO_TEXT_KEEP_LINKS.has(tag)) text = false;
      else if (SKIPPED_TAGS.has(tag) && tag !== 'head') continue;
      if (tag === 'head') {
        for (const child of node.childNodes)
          if (isElement(child) && child.tagName === 'title') stack.push({ node: child, text: false });
        continue;
      }
      const block = BLOCK_TAGS.has(tag) && text;
      if (block) stack.push('\n\n');
      for (let i = node.childNodes.length - 1; i >= 0; i -= 1) stack.push({ node: node.childNodes[i] as Node, text });
      if (block) stack.push('\n\n');
      continue;
    }
    if (node.nodeName === '#text' && 'value' in node) {
      if (text) out.push(String(node.value).replace(/\s+/g, ' '));
      continue;
    }
    const children = 'childNodes' in node ? (node.childNodes as Node[]) : [];
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push({ node: children[i] as Node, text });
  }
  const text = out
    .join('')
    .split('\n\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n');
  const resolved: string[] = [];
  for (const href of links) {
    try {
      resolved.push(new URL(href, base).toString());
    } catch {}
  }
  return { title, text, links: resolved };
};

const normalise = (raw: string, origin: string): string | null => {
  try {
    const url = new URL(raw);
    if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
    url.hash = '';
    return url.toString();
  } catch {
    return null;
  }
};

const isXml = (url: string, contentType: string) =>
  /\.xml$/i.test(new URL(url).pathname) || contentType.includes('xml');

/** Crawls one site from a page or a sitemap, breadth first, one request at a time. */
export const crawlSite = async (
  start: string,
  policy: OutboundPolicy,
  options: { maxPages: number; timeoutMs: number },
): Promise<CrawlResult> => {
  const startUrl = new URL(start);
  const origin = startUrl.origin;
  const deadline = Date.now() + options.timeoutMs;
  const fetchText = async (url: string, maxBytes: number) => {
    const result = await safeFetch(url, policy, {
      maxBytes,
      maxRedirects: 3,
      timeoutMs: Math.max(1000, Math.min(10_000, deadline - Date.now())),
      headers: {
        'user-agent': `${AGENT}/1.0 (+knowledge import)`,
        accept: 'text/html,application/xml;q=0.9,*/*;q=0.5',
      },
    });
    return {
      status: result.status,
      url: result.url,
      type: String(result.headers['content-type'] ?? ''),
      body: result.body.toString('utf8'),
    };
  };

  // robots.txt: none (or unreadable) allows everything; the start address itself is checked too.
  let allowed: (path: string) => boolean = () => true;
  try {
    const robots = await fetchText(`${origin}/robots.txt`, 64 * 1024);
    if (robots.status === 200) allowed = robotsRules(robots.body);
  } catch (error) {
    if (error instanceof BlockedAddressError) throw error;
  }

  const queue: string[] = [];
  const seen = new Set<string>();
  const pages: CrawledPage[] = [];
  let disallowed = 0;
  let failed = 0;
  const enqueue = (raw: string) => {
    const url = normalise(raw, origin);
    if (!url || seen.has(url)) return;
    seen.add(url);
    if (!allowed(new URL(url).pathname + new URL(url).search)) {
      disallowed += 1;
      return;
    }
    queue.push(url);
  };
  enqueue(startUrl.toString());
  let sitemaps = 0;
  while (queue.length && pages.length < options.maxPages && Date.now() < deadline) {
    const url = queue.shift() as string;
    let page: Awaited<ReturnType<typeof fetchText>>;
    try {
      page = await fetchText(url, PAGE_BYTES);
    } catch (error) {
      // The start address must be reachable; a later page that fails is counted and skipped.
      if (error instanceof BlockedAddressError || pages.length + failed === 0) throw error;
      failed += 1;
      continue;
    }
    if (page.status !== 200 || new URL(page.url).origin !== origin) {
      failed += 1;
      continue;
    }
    if (isXml(page.url, page.type)) {
      sitemaps += 1;
      if (sitemaps <= 10) for (const location of sitemapLocations(page.body)) enqueue(location);
      continue;
    }
    if (!page.type.includes('html')) {
      failed += 1;
      continue;
    }
    const read = readPage(page.body, new URL(page.url));
    for (const link of read.links) enqueue(link);
    if (read.text.trim()) pages.push({ url: page.url, title: read.title, text: read.text });
    else failed += 1;
  }
  return { pages, disallowed, failed };
};
