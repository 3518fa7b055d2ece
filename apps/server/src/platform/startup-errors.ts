import { DataDirLockedError } from '../db/data-dir-lock';

/**
 * A one-line message for the errors a person starting the server can fix (a port in use, a data
 * folder used by another process), instead of a stack trace; null for anything else.
 */
export const startupErrorMessage = (error: unknown, settings: { PORT: number; HOST: string }): string | null => {
  if (error instanceof DataDirLockedError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return `Port ${settings.PORT} is already in use on ${settings.HOST}: another server is listening there. Stop it, or start this one on another port (PORT=3001 npm start).`;
  }
  if (code === 'EACCES') {
    return `Port ${settings.PORT} on ${settings.HOST} needs more privileges than this process has; choose a PORT above 1023.`;
  }
  return null;
};
