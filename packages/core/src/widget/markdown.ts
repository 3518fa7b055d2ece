/**
 * The one markdown renderer of replies and help articles: the visitor widget, the designer's
 * preview, the workspace transcripts and the support articles all call `renderMarkdown`. It follows
 * CommonMark with GitHub's tables and strikethrough, for what chat replies use: headings, paragraphs
 * (a line break is kept as <br>, as in a chat), nested ordered and unordered lists, block quotes,
 * fenced and indented code, thematic breaks, code spans (nothing formatted inside), emphasis,
 * strong, links. Everything else is text: raw HTML is escaped, images show their alt text, and a link
 * keeps its href only for http(s), mailto, tel or a path on this site (never javascript: or data:).
 * Dependency-free and small: it is part of the widget's chat bundle.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const SAFE_HREF = /^(?:https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;
const LINK_ATTRS = ' target="_blank" rel="noopener noreferrer nofollow"';

/** The index of the end of a code span opened by the backtick run at `at`, or -1. */
const codeSpanEnd = (src: string, at: number, run: number) => {
  let i = at + run;
  while (i < src.length) {
    const next = src.indexOf('`', i);
    if (next < 0) return -1;
    let end = next;
    while (src[end] === '`') end++;
    if (end - next === run) return next;
    i = end;
  }
  return -1;
};

const runLength = (src: string, at: number, char: string) => {
  let end = at;
  while (src[end] === char) end++;
  return end - at;
};

/** The closing delimiter of an emphasis opened at `from`, skipping code spans and escapes; or -1. */
const closingDelimiter = (src: string, from: number, delimiter: string) => {
  const char = delimiter[0] as string;
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') i += 2;
    else if (c === '`') {
      const run = runLength(src, i, '`');
      const end = codeSpanEnd(src, i, run);
      i = end < 0 ? i + run : end + run;
    } else if (c === char) {
      // A run of delimiters is read whole: it closes only after a non-space, `_` not inside a word.
      const run = runLength(src, i, char);
      const closes =
        i > from && !/\s/.test(src[i - 1] ?? '') && !(char === '_' && /[\p{L}\p{N}]/u.test(src[i + run] ?? ''));
      // `**` closes strong on a run of 2 or more (`***`: its last two); `*` closes on 1 or 3 (a run
      // of 2 closes a strong inside the emphasis instead).
      if (closes && delimiter.length === 2 && run >= 2) return i + run - 2;
      if (closes && delimiter.length === 1 && (run === 1 || run >= 3)) return i + run - 1;
      i += run;
    } else i++;
  }
  return -1;
};

/** Each `[` of the text with the index of its matching `]` (nested brackets allowed), in one pass. */
const matchBrackets = (src: string) => {
  const matches = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '`') {
      const run = runLength(src, i, '`');
      const end = codeSpanEnd(src, i, run);
      i = (end < 0 ? i + run : end + run) - 1;
    } else if (c === '[') open.push(i);
    else if (c === ']' && open.length) matches.set(open.pop() as number, i);
  }
  return matches;
};

const unescapePunctuation = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Inline markdown of one block's text: every character not part of markup is escaped. */
export const renderInline = (src: string): string => {
  let out = '';
  let i = 0;
  const brackets = matchBrackets(src);
  // A delimiter that found no closing one from a position finds none from any later one either.
  const unclosed = new Map<string, number>();
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '\\' && PUNCTUATION.test(src[i + 1] ?? '')) {
      out += escapeHtml(src[i + 1] as string);
      i += 2;
    } else if (c === '\\' && src[i + 1] === '\n') {
      out += '<br>';
      i += 2;
    } else if (c === '\n') {
      out += '<br>';
      i++;
    } else if (c === '`') {
      const run = runLength(src, i, '`');
      const end = codeSpanEnd(src, i, run);
      if (end < 0) {
        out += '`'.repeat(run);
        i += run;
        continue;
      }
      let code = src.slice(i + run, end).replace(/\n/g, ' ');
      if (/^ .*[^ ].* $/s.test(code) || /^ [^ ] $/.test(code)) code = code.slice(1, -1);
      out += `<code>${escapeHtml(code)}</code>`;
      i = end + run;
    } else if (c === '[' || (c === '!' && src[i + 1] === '[')) {
      const image = c === '!';
      const open = image ? i + 1 : i;
      const close = brackets.get(open) ?? -1;
      const target =
        close < 0
          ? null
          : /^\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"([^"]*)")?\s*\)/.exec(src.slice(close + 1));
      if (!target) {
        out += escapeHtml(src.slice(i, open + 1));
        i = open + 1;
        continue;
      }
      const label = src.slice(open + 1, close);
      const href = unescapePunctuation((target[1] ?? '').replace(/^<|>$/g, ''));
      const title = target[2] ? ` title="${escapeHtml(unescapePunctuation(target[2]))}"` : '';
      if (image) out += escapeHtml(unescapePunctuation(label));
      else if (SAFE_HREF.test(href)) {
        // A page of this site opens in place; anything else in a new tab that cannot reach this one.
        const attrs = /^[/#]/.test(href) ? '' : LINK_ATTRS;
        out += `<a href="${escapeHtml(href)}"${title}${attrs}>${renderInline(label)}</a>`;
      } else out += renderInline(label);
      i = close + 1 + target[0].length;
    } else if (c === '*' || c === '_' || c === '~') {
      const run = runLength(src, i, c);
      const before = src[i - 1] ?? ' ';
      const after = src[i + run] ?? ' ';
      const opens = !/\s/.test(after) && !(c === '_' && /[\p{L}\p{N}]/u.test(before));
      const size = c === '~' ? (run === 2 ? 2 : 0) : run >= 2 ? 2 : 1;
      const delimiter = c.repeat(size);
      const known = (unclosed.get(delimiter) ?? Number.POSITIVE_INFINITY) <= i + size;
      const end = opens && size && !known ? closingDelimiter(src, i + size, delimiter) : -1;
      if (end < 0 && opens && size && !known) unclosed.set(delimiter, i + size);
      if (end < 0) {
        out += escapeHtml(c.repeat(run));
        i += run;
        continue;
      }
      const tag = c === '~' ? 'del' : size === 2 ? 'strong' : 'em';
      out += `<${tag}>${renderInline(src.slice(i + size, end))}</${tag}>`;
      i = end + size;
    } else {
      const next = src.slice(i).search(/[\\\n`![*_~]/);
      const end = next <= 0 ? (next === 0 ? i + 1 : src.length) : i + next;
      out += escapeHtml(src.slice(i, end));
      i = end;
    }
  }
  return out;
};

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

const isBlank = (line: string) => line.trim() === '';

/** A table row's cells: split on unescaped pipes, the outer pipes dropped. */
const tableCells = (line: string) => {
  const cells: string[] = [];
  let cell = '';
  const text = line.trim().replace(/^\|/, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  if (cell.trim() || !text.endsWith('|')) cells.push(cell.trim());
  return cells;
};

const isTableStart = (lines: string[], at: number) => {
  const header = lines[at] ?? '';
  const delimiter = lines[at + 1] ?? '';
  return (
    header.includes('|') &&
    TABLE_DELIMITER.test(delimiter) &&
    delimiter.includes('-') &&
    (delimiter.includes('|') || header.trim().startsWith('|')) &&
    tableCells(header).length === tableCells(delimiter).length
  );
};

const startsBlock = (lines: string[], at: number, inParagraph: boolean) => {
  const line = lines[at] ?? '';
  if (FENCE.test(line) || HEADING.test(line) || BREAK.test(line) || QUOTE.test(line)) return true;
  const item = ITEM.exec(line);
  // A list interrupts a paragraph only with content, and an ordered one only from 1.
  if (item && (!inParagraph || (item[4]?.trim() && (/^[-*+]$/.test(item[2] ?? '') || /^1[.)]$/.test(item[2] ?? '')))))
    return true;
  return isTableStart(lines, at);
};

const renderTable = (lines: string[], at: number) => {
  const aligns = tableCells(lines[at + 1] ?? '').map((cell) =>
    cell.startsWith(':') && cell.endsWith(':')
      ? 'center'
      : cell.endsWith(':')
        ? 'right'
        : cell.startsWith(':')
          ? 'left'
          : '',
  );
  const row = (line: string, tag: 'th' | 'td') => {
    const cells = tableCells(line);
    return `<tr>${aligns
      .map((align, index) => `<${tag}${align ? ` align="${align}"` : ''}>${renderInline(cells[index] ?? '')}</${tag}>`)
      .join('')}</tr>`;
  };
  let i = at + 2;
  const body: string[] = [];
  while (i < lines.length && !isBlank(lines[i] ?? '') && (lines[i] ?? '').includes('|') && !startsBlock(lines, i, true))
    body.push(row(lines[i++] ?? '', 'td'));
  const html = `<table><thead>${row(lines[at] ?? '', 'th')}</thead>${body.length ? `<tbody>${body.join('')}</tbody>` : ''}</table>`;
  return { html, next: i };
};

/** Removes up to `width` columns of leading spaces (a tab counts as up to the next multiple of 4). */
const dedent = (line: string, width: number) => {
  let column = 0;
  let i = 0;
  while (i < line.length && column < width && (line[i] === ' ' || line[i] === '\t')) {
    column = line[i] === '\t' ? column + 4 - (column % 4) : column + 1;
    i++;
  }
  return ' '.repeat(Math.max(0, column - width)) + line.slice(i);
};

const indentOf = (line: string) => line.length - line.trimStart().length;

const sameList = (line: string, marker: string, ordered: boolean) => {
  const item = ITEM.exec(line);
  return Boolean(item && (item[2] ?? '').slice(-1) === marker && /\d/.test(item[2] ?? '') === ordered);
};

const renderList = (lines: string[], at: number) => {
  const first = ITEM.exec(lines[at] ?? '') as RegExpExecArray;
  const ordered = /\d/.test(first[2] ?? '');
  const marker = (first[2] ?? '').slice(-1);
  const items: string[][] = [];
  let loose = false;
  let i = at;
  while (i < lines.length && sameList(lines[i] ?? '', marker, ordered)) {
    const item = ITEM.exec(lines[i] ?? '') as RegExpExecArray;
    const spaces = (item[3] ?? ' ').length;
    const content = item[4] ?? '';
    const padding = spaces > 4 || !content ? 1 : spaces;
    const width = (item[1] ?? '').length + (item[2] ?? '').length + padding;
    const body = [' '.repeat(Math.max(0, spaces - padding)) + content];
    i++;
    while (i < lines.length) {
      const line = lines[i] ?? '';
      if (isBlank(line) || indentOf(line) >= width) body.push(isBlank(line) ? '' : dedent(line, width));
      // A lazy continuation of the item's paragraph.
      else if (isBlank(body[body.length - 1] ?? '') || startsBlock(lines, i, true) || ITEM.test(line)) break;
      else body.push(line.trim());
      i++;
    }
    let trailing = 0;
    while (body.length && isBlank(body[body.length - 1] ?? '')) {
      body.pop();
      trailing++;
    }
    items.push(body);
    if (trailing && sameList(lines[i] ?? '', marker, ordered)) loose = true;
    // Blank lines after the last item belong to what follows.
    else i -= trailing;
  }
  const rendered = items.map((body) => renderBlocks(body));
  const wrap = loose || rendered.some((item) => item.gap);
  return renderListHtml(
    rendered.map((item) => paragraphs(item.html, wrap)),
    ordered,
    first,
    i,
  );
};

const renderListHtml = (items: string[], ordered: boolean, first: RegExpExecArray, next: number) => {
  const start = ordered ? Number.parseInt(first[2] ?? '1', 10) : 1;
  const tag = ordered ? 'ol' : 'ul';
  const attrs = ordered && start !== 1 ? ` start="${start}"` : '';
  return { html: `<${tag}${attrs}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`, next };
};

/** Marks around the paragraphs of one renderBlocks call, made <p> or nothing (a tight list's items) by its caller. */
const P_OPEN = String.fromCharCode(2);
const P_CLOSE = String.fromCharCode(3);
const paragraphs = (html: string, wrap: boolean) =>
  html
    .split(P_OPEN)
    .join(wrap ? '<p>' : '')
    .split(P_CLOSE)
    .join(wrap ? '</p>' : '');

/**
 * Block markdown of some lines, its paragraphs between P_OPEN and P_CLOSE. `gap`: a blank line
 * separated two of its blocks (which makes the list holding them loose).
 */
const renderBlocks = (lines: string[]): { html: string; gap: boolean } => {
  const out: string[] = [];
  let i = 0;
  let gap = false;
  let blank = false;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      blank = out.length > 0;
      i++;
      continue;
    }
    if (blank) gap = true;
    blank = false;
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1] as string;
      const indent = indentOf(line);
      const code: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${mark[0]}{${mark.length},}\\s*$`).test(lines[i] ?? ''))
        code.push(dedent(lines[i++] ?? '', indent));
      i++;
      const language = fence[2] ? ` class="language-${escapeHtml(unescapePunctuation(fence[2]))}"` : '';
      out.push(`<pre><code${language}>${escapeHtml(code.map((row) => `${row}\n`).join(''))}</code></pre>`);
      continue;
    }
    if (indentOf(line) >= 4) {
      const code: string[] = [];
      while (i < lines.length && (indentOf(lines[i] ?? '') >= 4 || isBlank(lines[i] ?? '')))
        code.push(dedent(lines[i++] ?? '', 4));
      while (code.length && isBlank(code[code.length - 1] ?? '')) code.pop();
      out.push(`<pre><code>${escapeHtml(code.map((row) => `${row}\n`).join(''))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      out.push(`<h${level}>${renderInline((heading[2] ?? '').trim())}</h${level}>`);
      i++;
      continue;
    }
    if (BREAK.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && !isBlank(lines[i] ?? '')) {
        const inner = QUOTE.exec(lines[i] ?? '');
        if (!inner && startsBlock(lines, i, true)) break;
        quoted.push(inner ? (inner[1] ?? '') : (lines[i] ?? ''));
        i++;
      }
      out.push(`<blockquote>${paragraphs(renderBlocks(quoted).html, true)}</blockquote>`);
      continue;
    }
    if (ITEM.test(line)) {
      const list = renderList(lines, i);
      out.push(list.html);
      i = list.next;
      continue;
    }
    if (isTableStart(lines, i)) {
      const table = renderTable(lines, i);
      out.push(table.html);
      i = table.next;
      continue;
    }
    const paragraph = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i] ?? '') && !startsBlock(lines, i, true))
      paragraph.push((lines[i++] ?? '').trim());
    const text = renderInline(paragraph.join('\n'));
    out.push(`${P_OPEN}${text}${P_CLOSE}`);
  }
  return { html: out.join(''), gap };
};

/** Markdown to safe HTML (see the top of this file). */
export const renderMarkdown = (source: string): string => {
  const text = [String.fromCharCode(0), P_OPEN, P_CLOSE].reduce(
    (clean, mark) => clean.split(mark).join('\uFFFD'),
    source.replace(/\r\n?/g, '\n'),
  );
  return paragraphs(renderBlocks(text.split('\n')).html, true);
};
