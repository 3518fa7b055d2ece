/** Safe markdown for replies: the text is HTML-escaped first, then a small set of markup is added. */
const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const inline = (text: string) =>
  text
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1<em>$2</em>')
    .replace(
      /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g,
      '<a href="$2" target="_blank" rel="noopener noreferrer nofollow">$1</a>',
    );

export const renderMarkdown = (source: string): string => {
  const blocks = escapeHtml(source).split(/```/);
  return blocks
    .map((block, index) => {
      if (index % 2 === 1) return `<pre><code>${block.replace(/^[a-z]*\n/, '')}</code></pre>`;
      const out: string[] = [];
      let list: 'ul' | 'ol' | null = null;
      const close = () => {
        if (list) out.push(`</${list}>`);
        list = null;
      };
      for (const line of block.split('\n')) {
        const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
        const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
        if (bullet || numbered) {
          const kind = bullet ? 'ul' : 'ol';
          if (list !== kind) {
            close();
            out.push(`<${kind}>`);
            list = kind;
          }
          out.push(`<li>${inline((bullet ?? numbered)?.[1] ?? '')}</li>`);
          continue;
        }
        close();
        const heading = /^#{1,6}\s+(.*)$/.exec(line);
        if (heading) out.push(`<strong>${inline(heading[1] ?? '')}</strong><br>`);
        else if (line.trim() === '') out.push('<br>');
        else out.push(`${inline(line)}<br>`);
      }
      close();
      return out.join('').replace(/(<br>)+$/, '');
    })
    .join('');
};
