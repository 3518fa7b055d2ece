import { diffLines } from '@switchboard/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DiffView, fold } from './diff-view';

describe('the suggestion diff', () => {
  it('marks removed and added lines with a sign and words, not colour alone', () => {
    const html = renderToStaticMarkup(<DiffView before={'Keep\nOld line'} after={'Keep\nNew line'} label="Change" />);
    expect(html).toContain('data-diff="removed"');
    expect(html).toMatch(/<del[^>]*><span class="sr-only">Removed: <\/span>Old line<\/del>/);
    expect(html).toMatch(/<ins[^>]*><span class="sr-only">Added: <\/span>New line<\/ins>/);
    expect(html).toMatch(/aria-hidden="true"[^>]*>-<\/span>/);
    expect(html).toMatch(/aria-hidden="true"[^>]*>\+<\/span>/);
  });

  it('folds long unchanged runs, keeping two lines of context beside a change', () => {
    const before = Array.from({ length: 12 }, (_, index) => `line ${index}`).join('\n');
    const rows = fold(diffLines(before, `${before}\nadded`));
    expect(rows[0]).toEqual({ kind: 'fold', hidden: 10, at: 0 });
    expect(rows.slice(1)).toEqual([
      { kind: 'same', text: 'line 10' },
      { kind: 'same', text: 'line 11' },
      { kind: 'added', text: 'added' },
    ]);
    expect(fold(diffLines('a\nb', 'a\nc'))).toHaveLength(3);
  });
});
