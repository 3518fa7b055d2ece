import { Fragment, type ReactNode } from 'react';

/**
 * Renders the help articles' markdown (headings, paragraphs, lists, tables, code blocks, inline
 * code, bold and links) as React elements: no HTML string is ever injected.
 */
const inline = (text: string, key: string): ReactNode[] => {
  const parts: ReactNode[] = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(pattern)) {
    const token = match[0];
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const id = `${key}-${index++}`;
    if (token.startsWith('`'))
      parts.push(
        <code key={id} className="rounded bg-surface-2 px-1">
          {token.slice(1, -1)}
        </code>,
      );
    else if (token.startsWith('**')) parts.push(<strong key={id}>{token.slice(2, -2)}</strong>);
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token) ?? [];
      const safe = href && /^(https:\/\/|\/)/.test(href) ? href : undefined;
      parts.push(
        <a key={id} href={safe} className="underline" rel="noreferrer">
          {label}
        </a>,
      );
    }
    last = at + token.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
};

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

export const Markdown = ({ source }: { source: string }) => {
  const lines = source.split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const key = `b${i}`;
    if (!line.trim()) {
      i += 1;
    } else if (line.startsWith('```')) {
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? '').startsWith('```')) code.push(lines[i++] ?? '');
      i += 1;
      blocks.push(
        <pre key={key} className="overflow-x-auto rounded-lg bg-surface-2 p-3 text-xs">
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if (/^#{1,3} /.test(line)) {
      const level = line.indexOf(' ');
      const text = line.slice(level + 1);
      blocks.push(
        level === 1 ? null : level === 2 ? (
          <h3 key={key} className="mt-4 text-base font-semibold">
            {inline(text, key)}
          </h3>
        ) : (
          <h4 key={key} className="mt-3 font-semibold">
            {inline(text, key)}
          </h4>
        ),
      );
      i += 1;
    } else if (line.trim().startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').trim().startsWith('|')) rows.push(cells(lines[i++] ?? ''));
      const [head = [], , ...body] = rows;
      blocks.push(
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section key={key} className="overflow-x-auto" tabIndex={0} aria-label="Table">
          <table className="w-full text-sm">
            <thead>
              <tr>
                {head.map((cell, c) => (
                  <th
                    // biome-ignore lint/suspicious/noArrayIndexKey: static article text, never reordered
                    key={`${key}h${c}`}
                    scope="col"
                    className="border-b border-border py-1 pr-3 text-left font-medium"
                  >
                    {inline(cell, `${key}h${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {body.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static article text, never reordered
                <tr key={`${key}r${r}`}>
                  {row.map((cell, c) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static article text, never reordered
                    <td key={`${key}r${r}c${c}`} className="border-b border-border py-1 pr-3 align-top">
                      {inline(cell, `${key}r${r}c${c}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>,
      );
    } else if (/^(- |\d+\. )/.test(line)) {
      const ordered = /^\d+\. /.test(line);
      const items: string[] = [];
      while (i < lines.length && /^(- |\d+\. )/.test(lines[i] ?? ''))
        items.push((lines[i++] ?? '').replace(/^(- |\d+\. )/, ''));
      const List = ordered ? 'ol' : 'ul';
      blocks.push(
        <List key={key} className={ordered ? 'list-decimal space-y-1 pl-5' : 'list-disc space-y-1 pl-5'}>
          {items.map((item, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static article text, never reordered
            <li key={`${key}-${n}`}>{inline(item, `${key}-${n}`)}</li>
          ))}
        </List>,
      );
    } else {
      const paragraph: string[] = [];
      while (i < lines.length && (lines[i] ?? '').trim() && !/^(#|- |\d+\. |\||```)/.test(lines[i] ?? ''))
        paragraph.push(lines[i++] ?? '');
      blocks.push(<p key={key}>{inline(paragraph.join(' '), key)}</p>);
    }
  }
  return (
    <div className="space-y-3 text-sm leading-relaxed">
      {blocks.map((block, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static article text, never reordered
        <Fragment key={`f${n}`}>{block}</Fragment>
      ))}
    </div>
  );
};
