import type { TCannedReply } from '@switchboard/core';
import { type KeyboardEvent, type TextareaHTMLAttributes, useId, useRef, useState } from 'react';
import { useOutletContext } from 'react-router';
import { Textarea } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { useCannedReplies } from './api';
import { insertCanned, matchCanned, slashQuery } from './canned-insert';

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** The sub-account whose canned replies "/" offers; by default the page's. */
  subaccountId?: string | null;
};

/**
 * The reply box of the inbox: typing "/" (then part of a title) lists the sub-account's canned
 * replies; arrows choose, Enter or Tab inserts, Escape closes.
 */
export const ReplyField = ({ value, onValueChange, subaccountId, onKeyDown, className, ...rest }: Props) => {
  const context = useOutletContext<{ subaccountId?: string } | undefined>();
  const canned = useCannedReplies(subaccountId ?? context?.subaccountId);
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const found = slashQuery(value, caret);
  const matches = found && !dismissed ? matchCanned(canned.data?.cannedReplies ?? [], found.query) : [];
  const open = matches.length > 0;
  const current = Math.min(active, Math.max(0, matches.length - 1));

  const choose = (reply: TCannedReply) => {
    const next = insertCanned(value, caret, reply.content);
    onValueChange(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      const chosen = matches[current];
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + matches.length) % matches.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && chosen) {
        event.preventDefault();
        choose(chosen);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissed(true);
        return;
      }
    }
    onKeyDown?.(event);
  };

  return (
    <div className={cn('relative', className)}>
      {open ? (
        <div
          id={listId}
          role="listbox"
          aria-label="Canned replies"
          className="absolute bottom-full left-0 z-10 mb-1 max-h-64 w-full overflow-y-auto rounded-lg border border-border bg-surface p-1 shadow-lg"
        >
          {matches.map((reply, index) => (
            <div
              key={reply.cannedReplyId}
              tabIndex={-1}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              className={cn('cursor-pointer rounded-md px-3 py-2 text-sm', index === current && 'bg-surface-2')}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(reply);
              }}
            >
              <span className="block font-medium">{reply.title}</span>
              <span className="block truncate text-muted">{reply.content}</span>
            </div>
          ))}
        </div>
      ) : null}
      <Textarea
        {...rest}
        ref={ref}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${current}` : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          setCaret(event.target.selectionStart ?? event.target.value.length);
          setActive(0);
          setDismissed(false);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
        onKeyDown={keyDown}
        className="min-h-10 w-full"
      />
    </div>
  );
};
