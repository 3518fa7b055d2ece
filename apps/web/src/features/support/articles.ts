/** The help articles shipped with the product (./articles/*.md), read at build time. */
export interface HelpArticle {
  slug: string;
  title: string;
  summary: string;
  /** The task a guide belongs to on Video Guides. */
  task: string;
  body: string;
}

const files = import.meta.glob('./articles/*.md', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

const parse = (path: string, raw: string): HelpArticle => {
  const slug = path.replace(/^.*\//, '').replace(/\.md$/, '');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(raw);
  const meta: Record<string, string> = {};
  for (const line of (match?.[1] ?? '').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) meta[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return {
    slug,
    title: meta.title ?? slug,
    summary: meta.summary ?? '',
    task: meta.task ?? 'other',
    body: match ? raw.slice(match[0].length) : raw,
  };
};

const ORDER = ['getting-started', 'website-widget', 'channels', 'evaluation', 'billing', 'self-hosting'];

export const HELP_ARTICLES: HelpArticle[] = Object.entries(files)
  .map(([path, raw]) => parse(path, raw))
  .sort((a, b) => ORDER.indexOf(a.slug) - ORDER.indexOf(b.slug));

/** Articles matching every word of the query, best first (title matches before body matches). */
export const searchArticles = (query: string, articles = HELP_ARTICLES): HelpArticle[] => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return articles;
  return articles
    .map((article) => {
      const title = article.title.toLowerCase();
      const text = `${title} ${article.summary.toLowerCase()} ${article.body.toLowerCase()}`;
      if (!words.every((word) => text.includes(word))) return null;
      const score = words.reduce((sum, word) => sum + (title.includes(word) ? 10 : 0) + text.split(word).length - 1, 0);
      return { article, score };
    })
    .filter((item): item is { article: HelpArticle; score: number } => item !== null)
    .sort((a, b) => b.score - a.score)
    .map((item) => item.article);
};

/** Video Guides: the tasks guides are grouped by. */
export const GUIDE_TASKS: { key: string; title: string }[] = [
  { key: 'build', title: 'Build an agent' },
  { key: 'launch', title: 'Put agents live' },
  { key: 'test', title: 'Test before going live' },
  { key: 'account', title: 'Your plan and credits' },
  { key: 'operate', title: 'Run your own installation' },
];
