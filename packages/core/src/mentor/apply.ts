import type { TMentorField } from './schemas';

/** The editable fields of an agent as a suggestion sees them. */
export interface MentorAgentFields {
  systemPrompt: string;
  firstMessage: string;
  suggestedResponses: string[];
}

/** A field as text: suggested questions one a line. */
export const mentorFieldText = (agent: MentorAgentFields, field: TMentorField): string =>
  field === 'suggestedResponses' ? agent.suggestedResponses.join('\n') : agent[field];

const occurrences = (haystack: string, needle: string): number => {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
};

/**
 * The field's text with the suggestion applied, or null when `before` no longer matches: an empty
 * `before` needs an empty field; any other must occur exactly once (or be the whole text).
 */
export const applyMentorChange = (current: string, before: string, after: string): string | null => {
  if (!before.trim()) return current.trim() ? null : after;
  if (current === before) return after;
  if (occurrences(current, before) !== 1) return null;
  return current.replace(before, () => after);
};

/** The value the agents API takes for a field, from its text. */
export const mentorFieldValue = (field: TMentorField, text: string): string | string[] =>
  field === 'suggestedResponses'
    ? text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
    : text;
