import { type DiffLine, diffLines } from '@switchboard/core';
import { useMemo, useState } from 'react';
import { cn } from '../../lib/cn';

/** Unchanged runs longer than this are folded, keeping this many lines of context on each side. */
const FOLD_OVER = 6;
const CONTEXT = 2;

type Row = DiffLine | { kind: 'fold'; hidden: number; at: number };

export const fold = (lines: DiffLine[]): Row[] => {
  const rows: Row[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as DiffLine;
    if (line.kind !== 'same') {
      rows.push(line);
      index += 1;
      continue;
    }
    let end = index;
    while (end < lines.length && lines[end]?.kind === 'same') end += 1;
    const run = lines.slice(index, end);
    if (run.length > FOLD_OVER) {
      const head = index === 0 ? 0 : CONTEXT;
      const tail = end === lines.length ? 0 : CONTEXT;
      rows.push(
        ...run.slice(0, head),
        { kind: 'fold', hidden: run.length - head - tail, at: index },
        ...run.slice(run.length - tail),
      );
    } else {
      rows.push(...run);
    }
    index = end;
  }
  return rows;
};

const MARKS = { same: ' ', removed: '-', added: '+' } as const;
const SPOKEN = { same: '', removed: 'Removed: ', added: 'Added: ' } as const;

/**
 * A line-level diff: removed lines red with "-", added lines green with "+", each also named for
 * screen readers, so the change is never told by colour alone.
 */
export const DiffView = ({ before, after, label }: { before: string; after: string; label: string }) => {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const [open, setOpen] = useState(false);
  const rows = open ? lines : fold(lines);
  return (
    <figure className="space-y-1">
      <figcaption className="flex flex-wrap items-center gap-3 text-xs text-muted">
        <span>{label}</span>
        <span aria-hidden="true">
          <span className="font-mono">-</span> removed · <span className="font-mono">+</span> added
        </span>
      </figcaption>
      <div className="overflow-hidden rounded-lg border border-border font-mono text-xs leading-5">
        {rows.map((row, index) =>
          row.kind === 'fold' ? (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
              key={`fold-${index}`}
              type="button"
              onClick={() => setOpen(true)}
              className="block w-full bg-surface-2 px-3 py-1 text-left text-muted hover:text-foreground"
            >
              Show {row.hidden} unchanged line{row.hidden === 1 ? '' : 's'}
            </button>
          ) : (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
              key={index}
              data-diff={row.kind}
              className={cn(
                'flex gap-2 px-2',
                row.kind === 'removed' && 'bg-red-50 text-red-900 dark:bg-red-950/70 dark:text-red-100',
                row.kind === 'added' && 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/70 dark:text-emerald-100',
              )}
            >
              <span aria-hidden="true" className="w-3 shrink-0 select-none font-bold">
                {MARKS[row.kind]}
              </span>
              {row.kind === 'same' ? (
                <span className="min-w-0 whitespace-pre-wrap break-words">{row.text || ' '}</span>
              ) : (
                (() => {
                  const Tag = row.kind === 'removed' ? 'del' : 'ins';
                  return (
                    <Tag className="min-w-0 whitespace-pre-wrap break-words no-underline">
                      <span className="sr-only">{SPOKEN[row.kind]}</span>
                      {row.text || ' '}
                    </Tag>
                  );
                })()
              )}
            </div>
          ),
        )}
        {rows.length === 0 ? <p className="px-3 py-1 text-muted">No change.</p> : null}
      </div>
    </figure>
  );
};
