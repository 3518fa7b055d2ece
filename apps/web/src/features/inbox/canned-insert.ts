import type { TCannedReply } from '@switchboard/core';

/**
 * The "/word" being typed before the caret (at the start or after a space or a line break), or
 * null: what the canned reply menu filters by.
 */
export const slashQuery = (text: string, caret: number): { start: number; query: string } | null => {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([^\s/]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - (match[2]?.length ?? 0) - 1, query: match[2] ?? '' };
};

/** The canned replies whose title (or text) holds the query, titles first. */
export const matchCanned = (replies: TCannedReply[], query: string): TCannedReply[] => {
  const wanted = query.toLowerCase();
  const inTitle = replies.filter((reply) => reply.title.toLowerCase().includes(wanted));
  const inText = replies.filter((reply) => !inTitle.includes(reply) && reply.content.toLowerCase().includes(wanted));
  return [...inTitle, ...inText].slice(0, 8);
};

/** The text with the "/word" replaced by the canned reply, and where the caret goes after it. */
export const insertCanned = (text: string, caret: number, content: string): { text: string; caret: number } => {
  const found = slashQuery(text, caret);
  const start = found ? found.start : caret;
  const next = text.slice(0, start) + content + text.slice(caret);
  return { text: next, caret: start + content.length };
};
