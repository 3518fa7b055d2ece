import { ERROR_CODES, type ErrorCode } from '@switchboard/core';

/** A typed error with a stable code; one handler turns it into the envelope and status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field?: string;
  readonly reason?: string;

  constructor(code: ErrorCode, message: string, options: { field?: string; reason?: string; status?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.field = options.field;
    this.reason = options.reason;
  }
}

export const notFound = (what = 'Not found'): AppError => new AppError('NOT_FOUND', what);
export const forbidden = (message = 'You do not have permission to do this'): AppError =>
  new AppError('FORBIDDEN', message);
export const invalid = (field: string, message: string): AppError =>
  new AppError('VALIDATION_ERROR', message, { field });
