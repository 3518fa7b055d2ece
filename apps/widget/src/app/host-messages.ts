import { HOST_SOURCE, type HostCommand } from '../protocol';

/**
 * Commands reach the iframe only from the page that really embeds it: the message must come from
 * the parent window and, when the browser tells the parent's origin (location.ancestorOrigins or
 * the referrer), from that origin. A foreign page can neither drive the widget nor claim to be
 * the host (the host origin the server checks is the message's real origin, not a field in it).
 */
export const hostCommandOf = (
  event: { data: unknown; origin: string; source: unknown },
  parent: unknown,
  parentOrigin: string,
): HostCommand | null => {
  const command = event.data as HostCommand | undefined;
  if (!command || typeof command !== 'object' || command.source !== HOST_SOURCE) return null;
  if (event.source !== parent) return null;
  if (parentOrigin && event.origin !== parentOrigin) return null;
  return { ...command, host: event.origin };
};
