/** A thread's contact as the channel reports it, and its id. */
export interface ContactOfThread {
  contactIdentifier: string | null;
  contactUsername?: string | null;
  contactName?: string | null;
}

/**
 * How lists and transcripts name a thread's contact: the person's name and @username when the
 * channel shared them (Instagram's user profile), else the id the channel gave (a number, an
 * Instagram-scoped id), else "Visitor".
 */
export const contactLabel = (thread: ContactOfThread): { title: string; detail: string | null } => {
  const username = thread.contactUsername ? `@${thread.contactUsername}` : null;
  if (thread.contactName) return { title: thread.contactName, detail: username };
  if (username) return { title: username, detail: null };
  return { title: thread.contactIdentifier ?? 'Visitor', detail: null };
};
